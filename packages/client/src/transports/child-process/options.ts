import type { StderrTransport } from "../transport.ts";
import type { StderrBurstLimits } from "./stderr-bursts.ts";

/** A signal the stop sequence sends. */
export type StopSignal = "SIGTERM" | "SIGKILL";

/** How a child process ended, the same on every runtime. */
export interface ExitStatus {
  /** The exit code, or `null` when a signal ended the process. */
  readonly exitCode: number | null;
  /** The signal that ended the process (`"SIGKILL"`), or `null` when it exited by itself. */
  readonly signal: string | null;
}

/** How long each step of the graceful stop waits for pi to exit. */
export interface StopTimeouts {
  /** After closing stdin (pi's graceful exit, with its final flush), before SIGTERM. Defaults to 2000 ms. */
  readonly stdinCloseMs?: number;
  /** After SIGTERM, before SIGKILL. Defaults to 1000 ms. */
  readonly sigtermMs?: number;
}

/** Options for spawning pi as a child process, on every runtime. */
export interface ChildProcessOptions {
  /** The executable: `pi` on `PATH` by default, or for example `process.execPath` with pi's `cli.js` in `args`. */
  readonly command?: string;
  /** The arguments, replacing the default `["--mode", "rpc"]`: include `--mode rpc` when you set them. */
  readonly args?: readonly string[];
  /** pi's working directory; defaults to the current one. */
  readonly cwd?: string;
  /** Variables set on top of the inherited environment; `undefined` removes one. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Whether pi inherits the current environment; `false` makes `env` the whole environment. Defaults to `true`. */
  readonly inheritEnv?: boolean;
  /** How many of the latest stderr bytes to keep for diagnostics. Defaults to 16 KiB. */
  readonly stderrBufferBytes?: number;
  /** Timeouts of the graceful stop: close stdin, wait, SIGTERM, wait, SIGKILL. */
  readonly stopTimeouts?: StopTimeouts;
  /** Largest inbound record in UTF-8 bytes; a larger one becomes a `record_too_large` frame. Defaults to 64 MiB. */
  readonly maxRecordBytes?: number;
  /**
   * Opt-in flow control: pi's stdout is read only while fewer than this many frames wait unread in
   * `readable`, so a slow consumer makes pi block on its full stdout pipe instead of the transport
   * buffering without bound (the bridge relies on this). Unset (the default), stdout is read
   * eagerly. Frames still in the pipe 50 ms after pi exits are dropped, as with eager reading.
   */
  readonly highWaterMark?: number;
  /** Receives pi's stderr as it arrives (decoded UTF-8), for live logging. */
  readonly onStderr?: (text: string) => void;
  /** How {@link StderrTransport.onPiStderr} coalesces and bounds pi's stderr. */
  readonly stderrBursts?: StderrBurstLimits;
}

/**
 * A transport to a pi child process. `closed` settles with `exit` when pi ends by itself
 * and `closed` after `close()`, both with the exit code, signal and stderr tail; pi's stderr is
 * also passed on as it comes, in bounded bursts (`onPiStderr`).
 */
export interface ChildProcessTransport extends StderrTransport {
  /** The process id, when the runtime reports one. */
  readonly pid: number | undefined;
  /** The latest stderr output (at most `stderrBufferBytes`), starting at a line boundary once trimmed. */
  stderrTail(): string;
  /** Sends a signal at once, skipping the graceful stop (a SIGTERM makes pi skip its final flush). */
  kill(signal?: StopSignal): void;
}

/** The default command: pi on `PATH`. */
export const DEFAULT_COMMAND = "pi";
/** The default arguments: RPC mode. */
export const DEFAULT_ARGS: readonly string[] = ["--mode", "rpc"];
/** The default stderr ring size: 16 KiB. */
export const DEFAULT_STDERR_BUFFER_BYTES = 16 * 1024;

/** The environment pi gets: `base` with `overrides` applied, `undefined` removing a variable. */
export function mergeEnv(
  base: Readonly<Record<string, string | undefined>>,
  overrides: Readonly<Record<string, string | undefined>> | undefined,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) if (value !== undefined) env[key] = value;
  if (overrides === undefined) return env;
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** A spawn failure with a hint, for example when `pi` is not on `PATH`. */
export function spawnError(command: string, cause: unknown): Error {
  const notFound =
    typeof cause === "object" &&
    cause !== null &&
    ((cause as { code?: unknown }).code === "ENOENT" ||
      (cause as { name?: unknown }).name === "NotFound");
  const hint = notFound
    ? command === DEFAULT_COMMAND
      ? ": pi is not on PATH; install it or pass { command, args } (for example node and pi's cli.js)"
      : ": the command was not found"
    : "";
  return new Error(`Cannot spawn ${JSON.stringify(command)}${hint}`, { cause });
}

/**
 * Runs a runtime's `spawn` with the command and arguments `options` ask for (pi in RPC mode by
 * default); a failure to start is rethrown as {@link spawnError}.
 */
export function spawnCommand<T>(
  options: ChildProcessOptions,
  spawn: (command: string, args: string[]) => T,
): T {
  const command = options.command ?? DEFAULT_COMMAND;
  try {
    return spawn(command, [...(options.args ?? DEFAULT_ARGS)]);
  } catch (cause) {
    throw spawnError(command, cause);
  }
}
