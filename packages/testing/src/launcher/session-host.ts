import { join } from "node:path";
import type { PiCommand } from "./pi-command.ts";

/** How a host that gives every session a directory of its own (such as `@pi-kit/bridge`) runs pi. */
export interface SessionHostOptions {
  /** The pi process, without the kit's `--no-session`: the host appends a `--session-dir` per session. */
  readonly pi: {
    readonly command: string;
    readonly args: readonly string[];
    readonly cwd: string;
    readonly env: Readonly<Record<string, string>>;
  };
  /** A sessions directory inside the command's temp root, so `dispose()` removes it too. */
  readonly sessionsDir: string;
}

/**
 * The options `@pi-kit/bridge` needs to run this pi, for example
 * `serveBridge({ ...sessionHostOptions(pi), port: 0 })`.
 */
export function sessionHostOptions(pi: PiCommand): SessionHostOptions {
  return {
    pi: {
      command: pi.command,
      args: pi.args.filter((arg) => arg !== "--no-session"),
      cwd: pi.cwd,
      env: pi.env,
    },
    sessionsDir: join(pi.tempRoot, "sessions"),
  };
}
