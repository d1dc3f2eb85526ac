/**
 * The sessions directory holds every conversation and what pi did in it, so only the user the
 * bridge runs as may read or change it. By default it is a per-user state directory; whatever
 * directory is used is created private (0700) and refused when someone else could get at it.
 */
import { mkdirSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import process from "node:process";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";

/** Mode bits: writable by the group or by others. */
const GROUP_OR_OTHER_WRITE = 0o022;
/** The sticky bit: in a directory with it, only an entry's owner may rename or delete it. */
const STICKY = 0o1000;

/**
 * The default sessions directory, private to the user: `$XDG_STATE_HOME/pi-kit/bridge/sessions`,
 * else `~/.local/state/pi-kit/bridge/sessions` (`%LOCALAPPDATA%\pi-kit\bridge\sessions` on Windows).
 */
export function defaultSessionsDir(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  const state = env.XDG_STATE_HOME;
  if (state !== undefined && isAbsolute(state)) return join(state, "pi-kit", "bridge", "sessions");
  if (process.platform === "win32" && env.LOCALAPPDATA !== undefined)
    return join(env.LOCALAPPDATA, "pi-kit", "bridge", "sessions");
  return join(homedir(), ".local", "state", "pi-kit", "bridge", "sessions");
}

/**
 * Where a cluster node keeps its history index cache by default: beside the default sessions
 * directory, on this machine's disk, one directory per node URL and shared sessions directory, so
 * the nodes of a cluster (and of two clusters on one host) never share one.
 */
export function defaultIndexDir(
  nodeUrl: string,
  sessionsDir: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  const slug = `${new URL(nodeUrl).host}${sessionsDir}`.replace(/[^A-Za-z0-9.-]+/g, "_");
  return join(dirname(defaultSessionsDir(env)), "index", slug.slice(-120));
}

/**
 * Creates `dir` (and missing parents) with mode 0700 and checks that only this user can get at
 * it: it must belong to this user and be writable by nobody else, and each parent must belong to
 * this user or root and, unless sticky like /tmp, be writable by nobody else (or another user
 * could swap the directory). Throws a `BridgeError` (`invalid_options`) that names the fix.
 * Windows has no such modes: there it only creates the directory. `what` names the directory in
 * the error: the sessions directory, or the workspaces directory (which holds every session's files
 * just as well).
 */
export function prepareSessionsDir(dir: string, what = "sessions directory"): void {
  const unsafe = (problem: string, fix: string): BridgeError =>
    new BridgeError(BridgeErrorCode.InvalidOptions, `Unsafe ${what}: ${problem}; ${fix}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const uid = process.getuid?.();
  if (uid === undefined) return;
  const real = realpathSync(dir);
  const stat = statSync(real);
  if (!stat.isDirectory()) throw unsafe(`${dir} is not a directory`, "choose a directory");
  if (stat.uid !== uid) {
    throw unsafe(
      `${dir} belongs to user ${stat.uid}, not to this user (${uid}), who could read and change every session's files`,
      `use a directory of your own${what === "sessions directory" ? ` (the default is ${defaultSessionsDir()})` : ""}`,
    );
  }
  if ((stat.mode & GROUP_OR_OTHER_WRITE) !== 0) {
    throw unsafe(
      `${dir} is writable by ${whoMayWrite(stat.mode)} (mode ${octal(stat.mode)})`,
      `run \`chmod 700 ${dir}\`, or choose another directory`,
    );
  }
  for (let parent = dirname(real); ; parent = dirname(parent)) {
    const p = statSync(parent);
    if (p.uid !== uid && p.uid !== 0) {
      throw unsafe(
        `its parent ${parent} belongs to user ${p.uid}, who could replace the ${what}`,
        "choose a directory under one you own",
      );
    }
    if ((p.mode & GROUP_OR_OTHER_WRITE) !== 0 && (p.mode & STICKY) === 0) {
      throw unsafe(
        `its parent ${parent} is writable by ${whoMayWrite(p.mode)} (mode ${octal(p.mode)}), who could replace the ${what}`,
        `run \`chmod go-w ${parent}\`, or choose a directory under one only you can write`,
      );
    }
    if (dirname(parent) === parent) break;
  }
}

function whoMayWrite(mode: number): string {
  const group = (mode & 0o020) !== 0;
  const others = (mode & 0o002) !== 0;
  return group && others ? "its group and others" : group ? "its group" : "others";
}

function octal(mode: number): string {
  return `0${(mode & 0o7777).toString(8)}`;
}
