/**
 * What `/readyz` checks: that the bridge could start a session now. Each check is cheap enough
 * for a load balancer probing every few seconds: no pi is started.
 */
import { constants } from "node:fs";
import { access, mkdtemp, rm, stat } from "node:fs/promises";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import process from "node:process";
import type { PiProcessSpec } from "../sessions/session.ts";

/** One readiness check: its name (for the log) and whether it passes. */
export interface ReadinessCheck {
  readonly name: string;
  /** Resolves `undefined` when the check passes, else why not (for the log, never the response). */
  run(): Promise<string | undefined>;
}

/**
 * pi can be spawned: its command resolves (on pi's `PATH` when it has no slash) to an executable
 * file, and pi's working directory exists.
 */
export function spawnCheck(pi: PiProcessSpec): ReadinessCheck {
  return {
    name: "spawn",
    async run() {
      const cwd = pi.cwd ?? process.cwd();
      if (!(await isDirectory(cwd))) return "pi's working directory is missing";
      if (pi.command.includes("/") || isAbsolute(pi.command)) {
        return (await isExecutable(resolve(cwd, pi.command)))
          ? undefined
          : "the pi command is not an executable file";
      }
      const path = (pi.env && "PATH" in pi.env ? pi.env.PATH : process.env.PATH) ?? "";
      for (const dir of path.split(delimiter)) {
        if (dir !== "" && (await isExecutable(join(dir, pi.command)))) return undefined;
      }
      return "the pi command is not on PATH";
    },
  };
}

/** The sessions directory takes a new entry: a directory is made in it and removed at once. */
export function writableCheck(dir: string): ReadinessCheck {
  return {
    name: "sessions_dir",
    async run() {
      try {
        // A directory rather than a file: what a new session needs, and listings skip dot names.
        await rm(await mkdtemp(join(dir, ".readyz-")), { recursive: true, force: true });
        return undefined;
      } catch (error) {
        return `the sessions directory cannot be written (${(error as { code?: string }).code ?? "error"})`;
      }
    },
  };
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
