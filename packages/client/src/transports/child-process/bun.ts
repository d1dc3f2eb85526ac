/**
 * @module
 * Spawns pi with `Bun.spawn`: the Bun adapter of the child-process transport.
 * Bun is described by the small local interfaces below, so no Bun type package is needed.
 */
import { createChildTransport } from "./child-transport.ts";
import {
  type ChildProcessOptions,
  type ChildProcessTransport,
  type ExitStatus,
  mergeEnv,
  spawnCommand,
} from "./options.ts";
import { leaderGroup } from "./process-group.ts";
import { runtimeGlobal } from "./runtime-global.ts";

/** The part of Bun's `FileSink` (a piped stdin) used here. */
interface BunFileSink {
  write(chunk: Uint8Array): number;
  flush(): number | Promise<number>;
  end(): number | Promise<number>;
}

/** The part of Bun's `Subprocess` used here. */
interface BunSubprocess {
  readonly pid: number;
  readonly stdin: BunFileSink;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  readonly exited: Promise<number>;
  readonly exitCode: number | null;
  readonly signalCode: string | null;
  kill(signal?: string): void;
}

/** The part of the `Bun` global used here. */
interface BunNamespace {
  spawn(options: {
    cmd: string[];
    cwd?: string;
    env: Record<string, string>;
    stdin: "pipe";
    stdout: "pipe";
    stderr: "pipe";
    detached: boolean;
  }): BunSubprocess;
  readonly env: Record<string, string | undefined>;
}

/** The part of Bun's `process` global used here. */
interface BunProcess {
  readonly platform: string;
  kill(pid: number, signal: string | 0): void;
}

/**
 * Spawns pi on Bun. Write to it at once: the client's `get_state` handshake is the readiness check.
 *
 * @example
 * ```ts
 * import { spawnBun } from "@pi-kit/client/bun";
 * const transport = await spawnBun({ env: { PI_CODING_AGENT_DIR: "/tmp/agent" } });
 * ```
 */
export async function spawnBun(options: ChildProcessOptions = {}): Promise<ChildProcessTransport> {
  const bun = runtimeGlobal<BunNamespace>("Bun");
  const host = (globalThis as unknown as { process: BunProcess }).process;
  const groups = host.platform !== "win32";
  const child = spawnCommand(options, (command, args) =>
    bun.spawn({
      cmd: [command, ...args],
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      // Bun replaces the environment when given one, so pass the inherited one merged.
      env: mergeEnv(options.inheritEnv === false ? {} : bun.env, options.env),
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      // A group (and session) of its own, so a terminal's Ctrl-C reaches only the host; see ProcessGroup.
      detached: groups,
    }),
  );
  const exited = child.exited.then(
    (): ExitStatus => ({ exitCode: child.exitCode, signal: child.signalCode }),
  );
  const sink = child.stdin;
  return createChildTransport(
    {
      pid: child.pid,
      stdin: new WritableStream<Uint8Array>({
        async write(chunk) {
          sink.write(chunk);
          await sink.flush();
        },
        async close() {
          await sink.end();
        },
        async abort() {
          try {
            await sink.end();
          } catch {
            // Already closed, or pi is gone.
          }
        },
      }),
      stdout: child.stdout,
      stderr: child.stderr,
      exited,
      group: leaderGroup(child, groups ? (pid, signal) => host.kill(pid, signal) : undefined),
    },
    options,
  );
}
