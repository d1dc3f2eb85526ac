/**
 * Spawns real pi with `node:child_process` and gives tests a small line-level driver:
 * send commands, await responses and events, record a transcript, shut down cleanly.
 * @module
 */

import { type ChildProcess, spawn } from "node:child_process";
import { JsonlDecoder, type ProtocolError, type TranscriptEntry } from "@pi-kit/protocol";
import { type PiCommand, type PiCommandOptions, piCommand } from "./pi-command.ts";

/** A JSON object as read from or written to pi. */
export type PiJson = Readonly<Record<string, unknown>>;

/** One stdout line of pi. */
export interface PiRecord {
  /** Milliseconds since spawn. */
  readonly t: number;
  /** The raw line, without LF. */
  readonly text: string;
  /** The parsed object, or undefined when the line is not a JSON object. */
  readonly json: PiJson | undefined;
}

/** How a pi process ended. */
export interface PiExit {
  readonly code: number | null;
  readonly signal: string | null;
}

/** Options of {@link launchPi}. */
export interface LaunchOptions extends PiCommandOptions {
  /** Keep the temp directories after {@link LaunchedPi.close} (default false). */
  readonly keepTemp?: boolean;
}

/** Options of the waiting methods. */
export interface WaitOptions {
  /** Give up after this many ms (default 30 000). */
  readonly timeoutMs?: number;
  /** Only look at records from this index on (see {@link LaunchedPi.mark}); default 0. */
  readonly since?: number;
}

/** A running pi process driven line by line. */
export interface LaunchedPi {
  /** How it was spawned. */
  readonly spec: PiCommand;
  /** The child process. */
  readonly child: ChildProcess;
  /** Every stdout line so far. */
  readonly records: readonly PiRecord[];
  /** Every line in both directions, as transcript entries (`out` = to pi). */
  readonly transcript: readonly TranscriptEntry[];
  /** Resolves when the process exits. */
  readonly exited: Promise<PiExit>;
  /** The last 64 KiB of stderr. */
  stderr(): string;
  /** Index of the next record, to pass as `since`. */
  mark(): number;
  /** Writes one command as a JSON line. */
  send(command: PiJson): void;
  /** Writes raw text as-is (for framing tests); add the LF yourself. */
  sendRaw(text: string): void;
  /** Sends a command with an id (generated unless given) and resolves with its `response`. */
  request(command: PiJson, options?: WaitOptions): Promise<PiJson>;
  /** Resolves with the first record matching `predicate`. */
  waitFor(predicate: (record: PiJson) => boolean, options?: WaitOptions): Promise<PiJson>;
  /** Waits for the first record of this `type`. */
  waitForType(type: string, options?: WaitOptions): Promise<PiJson>;
  /** Closes stdin, then SIGTERM, then SIGKILL; removes temp dirs unless `keepTemp`. */
  close(graceMs?: number): Promise<PiExit>;
  /** Same as {@link LaunchedPi.close}. */
  [Symbol.asyncDispose](): Promise<void>;
}

const STDERR_LIMIT = 64 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;

function parseObject(text: string): PiJson | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as PiJson)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Spawns pi per `options` (see {@link piCommand}) and resolves once the process has started. */
export async function launchPi(options: LaunchOptions): Promise<LaunchedPi> {
  const spec = piCommand(options);
  const started = Date.now();
  const child = spawn(spec.command, [...spec.args], {
    cwd: spec.cwd,
    env: spec.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const records: PiRecord[] = [];
  const transcript: TranscriptEntry[] = [];
  const waiters = new Set<() => void>();
  let stderr = "";
  let exit: PiExit | undefined;
  let nextId = 0;

  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };
  const onRecord = (text: string) => {
    const t = Date.now() - started;
    records.push({ t, text, json: parseObject(text) });
    transcript.push({ t, dir: "in", record: text });
    notify();
  };
  // pi frames with LF only; the protocol's decoder is the one strict framer of this repo.
  const decoder = new JsonlDecoder();
  const onFramingError = (error: ProtocolError) => onRecord(error.raw ?? "");
  child.stdout?.on("data", (chunk: Uint8Array) => decoder.scan(chunk, onRecord, onFramingError));
  child.stdout?.on("end", () => decoder.finish(onRecord, onFramingError));
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (text: string) => {
    stderr = (stderr + text).slice(-STDERR_LIMIT);
  });
  // A write after pi exited raises EPIPE on stdin; the exit itself is reported through `exited`.
  child.stdin?.on("error", () => {});

  const exited = new Promise<PiExit>((resolve) => {
    child.once("exit", (code, signal) => {
      exit = { code, signal };
      resolve(exit);
      notify();
    });
  });
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", (error) => {
      spec.dispose();
      reject(new Error(`Could not spawn ${spec.command}: ${error.message}`, { cause: error }));
    });
  });

  const sendRaw = (text: string) => {
    for (const line of text.split("\n").slice(0, -1)) {
      transcript.push({ t: Date.now() - started, dir: "out", record: line });
    }
    child.stdin?.write(text);
  };

  const waitFor = (predicate: (record: PiJson) => boolean, opts: WaitOptions = {}) => {
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let index = opts.since ?? 0;
    return new Promise<PiJson>((resolve, reject) => {
      const finish = (error?: Error, value?: PiJson) => {
        clearTimeout(timer);
        waiters.delete(check);
        if (error) reject(error);
        else resolve(value as PiJson);
      };
      const check = () => {
        for (; index < records.length; index++) {
          const json = (records[index] as PiRecord).json;
          if (json && predicate(json)) return finish(undefined, json);
        }
        if (exit) {
          finish(
            new Error(
              `pi exited (${exit.code ?? exit.signal}) while waiting.\n${stderr.slice(-2000)}`,
            ),
          );
        }
      };
      const timer = setTimeout(() => {
        const tail = records.slice(-5).map((r) => r.text.slice(0, 300));
        finish(
          new Error(
            `Timed out after ${timeoutMs} ms waiting for pi.\nLast records:\n${tail.join("\n")}\nStderr:\n${stderr.slice(-2000)}`,
          ),
        );
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  };

  let closing: Promise<PiExit> | undefined;
  const close = (graceMs = 2000) => {
    closing ??= (async () => {
      const exitedWithin = async (ms: number) => {
        let timer: Parameters<typeof clearTimeout>[0];
        const late = new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), ms);
        });
        const result = await Promise.race([exited, late]);
        clearTimeout(timer);
        return result !== undefined;
      };
      if (!exit) {
        // EOF first: pi flushes stdout and exits 0; SIGTERM would skip that flush.
        child.stdin?.end();
        if (!(await exitedWithin(graceMs))) child.kill("SIGTERM");
        if (!(await exitedWithin(1000))) child.kill("SIGKILL");
      }
      const result = await exited;
      if (!options.keepTemp) spec.dispose();
      return result;
    })();
    return closing;
  };

  return {
    spec,
    child,
    records,
    transcript,
    exited,
    stderr: () => stderr,
    mark: () => records.length,
    send: (command) => sendRaw(`${JSON.stringify(command)}\n`),
    sendRaw,
    waitFor,
    waitForType: (type, opts) => waitFor((record) => record.type === type, opts),
    request(command, opts = {}) {
      const id = command.id ?? `pikit-${++nextId}`;
      const since = records.length;
      sendRaw(`${JSON.stringify({ ...command, id })}\n`);
      return waitFor((record) => record.type === "response" && record.id === id, {
        ...opts,
        since: opts.since ?? since,
      });
    },
    close,
    async [Symbol.asyncDispose]() {
      await close();
    },
  };
}
