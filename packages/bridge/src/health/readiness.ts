/**
 * What `/readyz` checks: that the bridge could start a session now. Each check is cheap enough
 * for a load balancer probing every few seconds: no pi is started.
 */
import { statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { resolveCommand } from "../executables/resolve-command.ts";

/** One readiness check: its name (for the log) and whether it passes. */
export interface ReadinessCheck {
  readonly name: string;
  /** Resolves `undefined` when the check passes, else why not (for the log, never the response). */
  run(): Promise<string | undefined>;
}

/** What a spawn runs: the executable, where, and on which `PATH`. */
export interface SpawnTarget {
  readonly command: string;
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * pi can be spawned: each command (pi's, and bubblewrap's when sandboxed) resolves to an
 * executable file, on pi's `PATH` when it has no slash, and pi's working directory exists.
 */
export function spawnCheck(targets: readonly SpawnTarget[]): ReadinessCheck {
  return {
    name: "spawn",
    async run() {
      for (const target of targets) {
        const cwd = target.cwd ?? process.cwd();
        if (!isDirectory(cwd)) return "pi's working directory is missing";
        const path = target.env && "PATH" in target.env ? target.env.PATH : process.env.PATH;
        if (resolveCommand(target.command, { cwd, path }) === undefined) {
          return target.command.includes("/")
            ? `${target.command} is not an executable file`
            : `${target.command} is not on PATH`;
        }
      }
      return undefined;
    },
  };
}

/**
 * A directory (the sessions directory, `sessions_dir`, or the workspaces directory,
 * `workspaces_dir`) takes a new entry: a directory is made in it and removed at once.
 */
export function writableCheck(
  dir: string,
  name = "sessions_dir",
  what = "sessions directory",
): ReadinessCheck {
  return {
    name,
    async run() {
      try {
        // A directory rather than a file: what a new session needs, and listings skip dot names.
        await rm(await mkdtemp(join(dir, ".readyz-")), { recursive: true, force: true });
        return undefined;
      } catch (error) {
        return `the ${what} cannot be written (${(error as { code?: string }).code ?? "error"})`;
      }
    },
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
