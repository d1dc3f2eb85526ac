/**
 * @module
 * Spawns pi with `node:child_process`: the Node adapter of the child-process transport.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import process from "node:process";
import type { Readable, Writable } from "node:stream";
import { createChildTransport } from "./child-transport.ts";
import {
  type ChildProcessOptions,
  type ChildProcessTransport,
  DEFAULT_ARGS,
  DEFAULT_COMMAND,
  type ExitStatus,
  mergeEnv,
  spawnError,
} from "./options.ts";
import { leaderGroup } from "./process-group.ts";

/** Whether pi gets a process group of its own: everywhere but Windows, which has none. */
const GROUPS = process.platform !== "win32";

/**
 * Spawns pi on Node and resolves once the process has started; write to it at once (pi buffers
 * input until it is ready, so the client's `get_state` handshake is the readiness check).
 *
 * @example
 * ```ts
 * import { spawnNode } from "@pi-kit/client/node";
 * const transport = await spawnNode({ cwd: "/my/project", args: ["--mode", "rpc", "--no-session"] });
 * ```
 */
export async function spawnNode(options: ChildProcessOptions = {}): Promise<ChildProcessTransport> {
  const command = options.command ?? DEFAULT_COMMAND;
  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn(command, [...(options.args ?? DEFAULT_ARGS)], {
      cwd: options.cwd,
      env: mergeEnv(options.inheritEnv === false ? {} : process.env, options.env),
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
      // A group (and session) of its own, so a terminal's Ctrl-C reaches only the host; see ProcessGroup.
      detached: GROUPS,
    });
  } catch (cause) {
    throw spawnError(command, cause);
  }
  // Registered before the first tick, so neither an early exit nor an error is missed.
  const exited = new Promise<ExitStatus>((resolve) => {
    child.once("exit", (code, signal) => resolve({ exitCode: code, signal }));
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (cause: Error): void => reject(spawnError(command, cause));
    child.once("error", onError);
    child.once("spawn", () => {
      child.off("error", onError);
      resolve();
    });
  });
  // Errors after the spawn (a failed kill, EPIPE) surface through writes and the exit status;
  // an unhandled "error" event would crash the host instead.
  child.on("error", () => {});
  return createChildTransport(
    {
      pid: child.pid,
      stdin: toWritable(child.stdin),
      stdout: toReadable(child.stdout, options.highWaterMark !== undefined),
      stderr: toReadable(child.stderr, false),
      exited,
      group: leaderGroup(child, GROUPS ? (pid, signal) => process.kill(pid, signal) : undefined),
    },
    options,
  );
}

/**
 * A Node readable as a web stream, read eagerly (the transport pumps it anyway), or `paced`:
 * paused while a chunk waits unread, so pi blocks on its pipe when the transport's reader stops.
 * Hand-rolled rather than `Readable.toWeb`, whose Node 20 version mishandles early ends.
 */
function toReadable(stream: Readable, paced: boolean): ReadableStream<Uint8Array> {
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      stream.on("data", (chunk: Uint8Array) => {
        if (done) return;
        controller.enqueue(chunk);
        if (paced && (controller.desiredSize ?? 0) <= 0) stream.pause();
      });
      stream.once("end", () => {
        if (done) return;
        done = true;
        controller.close();
      });
      stream.once("error", (error) => {
        if (done) return;
        done = true;
        controller.error(error);
      });
      stream.once("close", () => {
        // Destroyed without an "end" (a killed process can do this): end the web stream too.
        if (done) return;
        done = true;
        controller.close();
      });
    },
    pull() {
      if (paced && stream.isPaused()) stream.resume();
    },
    cancel() {
      // The web stream is closed now: the "end" or "close" the destroy brings must not close it again.
      done = true;
      stream.destroy();
    },
  });
}

/** A Node writable as a web stream; each write resolves once Node has flushed it. */
function toWritable(stream: Writable): WritableStream<Uint8Array> {
  // EPIPE after pi has exited arrives both here and in the write callback: keep it from crashing the host.
  stream.on("error", () => {});
  return new WritableStream<Uint8Array>({
    write(chunk) {
      return new Promise((resolve, reject) => {
        stream.write(chunk, (error) => (error ? reject(error) : resolve()));
      });
    },
    close() {
      return new Promise((resolve) => {
        if (stream.destroyed || stream.writableFinished) resolve();
        else stream.end(() => resolve());
      });
    },
    abort() {
      stream.destroy();
    },
  });
}
