/**
 * One bridge per sessions directory. pi appends to its session files without a lock, so two
 * bridges on one directory would run two pi processes on one conversation and corrupt it. The
 * lock is a file created atomically with `link()` (also atomic on NFS), holding who owns it. It
 * is crash-safe: a holder on this host whose process is gone, or a holder on another host that
 * stopped refreshing the file's time, no longer counts, and the next bridge takes over.
 */
import { linkSync, readFileSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { clearInterval, setInterval } from "node:timers";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";

/** The lock file, in the sessions directory (a dot name is never a session name). */
export const LOCK_FILE = ".pi-kit-bridge.lock";
/** Held only while a stale lock is replaced, so two bridges cannot both replace it. */
const TAKEOVER_FILE = ".pi-kit-bridge.lock.takeover";
/** How often the holder refreshes the lock file's time. */
const HEARTBEAT_MS = 10_000;
/** A lock from another host whose time is older than this is stale (its bridge is gone). */
const STALE_MS = 60_000;
/** A takeover is a few file operations; one older than this died half-way. */
const TAKEOVER_STALE_MS = 10_000;
/** How long to wait for another bridge's takeover before looking again. */
const TAKEOVER_WAIT_MS = 2_000;

/** Who holds a sessions directory: what the lock file says. */
export interface SessionsDirHolder {
  /** The holder's process id, on `host`. */
  readonly pid: number;
  /** The host name of the holder's machine. */
  readonly host: string;
  /** Where the holder serves, when it said. */
  readonly url?: string;
  /** When it took the lock (ISO 8601). */
  readonly since: string;
  /** Tells two bridges of one process apart. */
  readonly instance: string;
}

/** The sessions directory belongs to another live bridge: `holder` says which. */
export class SessionsDirInUseError extends BridgeError {
  /** The bridge that holds the directory. */
  readonly holder: SessionsDirHolder;

  constructor(dir: string, holder: SessionsDirHolder) {
    const where = holder.url === undefined ? "" : ` at ${holder.url}`;
    super(
      BridgeErrorCode.SessionsDirInUse,
      `The sessions directory ${dir} is in use by another bridge (pid ${holder.pid} on ${holder.host}${where}): stop it, or choose another directory`,
    );
    this.name = "SessionsDirInUseError";
    this.holder = holder;
  }
}

/** A held lock on a sessions directory. */
export interface SessionsDirLock {
  /** What the lock file says about this bridge. */
  readonly holder: SessionsDirHolder;
  /** Gives the directory up; a lock another bridge took over is left alone. */
  release(): void;
}

/** Options of {@link lockSessionsDir}. */
export interface LockOptions {
  /** Where this bridge serves, for the message a second bridge prints. */
  readonly url?: string;
  /** Called once if another bridge took the lock over (this one was frozen past `STALE_MS`). */
  readonly onLost?: (holder: SessionsDirHolder | undefined) => void;
}

/**
 * Takes `dir` for this bridge, or throws a {@link SessionsDirInUseError} naming the live bridge
 * that holds it. A stale lock (its process gone) is taken over.
 */
export function lockSessionsDir(dir: string, options: LockOptions = {}): SessionsDirLock {
  const file = join(dir, LOCK_FILE);
  const holder: SessionsDirHolder = {
    pid: process.pid,
    host: hostname(),
    ...(options.url === undefined ? {} : { url: options.url }),
    since: new Date().toISOString(),
    instance: crypto.randomUUID(),
  };
  const deadline = Date.now() + TAKEOVER_WAIT_MS;
  for (;;) {
    if (createExclusive(file, holder)) break;
    const current = readHolder(file);
    if (current !== undefined && isAlive(current, file))
      throw new SessionsDirInUseError(dir, current);
    if (replaceStale(dir, file, current, holder)) break;
    // Another bridge is replacing the same stale lock: look again once it is done.
    if (Date.now() > deadline) {
      throw new BridgeError(
        BridgeErrorCode.SessionsDirInUse,
        `The sessions directory ${dir} is being taken over by another bridge; try again`,
      );
    }
    pause(50);
  }
  let lost = false;
  const heartbeat = setInterval(() => {
    const current = readHolder(file);
    if (current?.instance === holder.instance) {
      touch(file);
      return;
    }
    if (lost) return;
    lost = true;
    options.onLost?.(current);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    holder,
    release() {
      clearInterval(heartbeat);
      if (readHolder(file)?.instance === holder.instance) removeIfPresent(file);
    },
  };
}

/** Creates `file` holding `holder`, complete from its first instant; false if it exists. */
function createExclusive(file: string, holder: SessionsDirHolder): boolean {
  const temp = `${file}.${holder.instance}`;
  writeFileSync(temp, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
  try {
    linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    removeIfPresent(temp);
  }
}

/**
 * Replaces the stale lock `stale` with ours under the takeover lock, so that of two bridges
 * that found it stale only one replaces it. False when someone else is at it.
 */
function replaceStale(
  dir: string,
  file: string,
  stale: SessionsDirHolder | undefined,
  holder: SessionsDirHolder,
): boolean {
  const takeover = join(dir, TAKEOVER_FILE);
  if (!createExclusive(takeover, holder)) {
    if (ageMs(takeover) > TAKEOVER_STALE_MS) removeIfPresent(takeover);
    return false;
  }
  try {
    // Still the lock we judged? Between our look and the takeover lock it may have changed hands.
    if (readHolder(file)?.instance !== stale?.instance) return false;
    removeIfPresent(file);
    return createExclusive(file, holder);
  } finally {
    removeIfPresent(takeover);
  }
}

/** Whether the holder still runs: its process on this host, or its heartbeat elsewhere. */
function isAlive(holder: SessionsDirHolder, file: string): boolean {
  if (holder.host !== hostname()) return ageMs(file) < STALE_MS;
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The holder a lock file names; `undefined` if it is gone or unreadable (then it is stale). */
function readHolder(file: string): SessionsDirHolder | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    const value = JSON.parse(text) as Partial<SessionsDirHolder> | null;
    if (
      typeof value?.pid === "number" &&
      typeof value.host === "string" &&
      typeof value.since === "string" &&
      typeof value.instance === "string" &&
      (value.url === undefined || typeof value.url === "string")
    ) {
      return value as SessionsDirHolder;
    }
  } catch {
    // A garbled lock file is stale: only a crash mid-write could leave one.
  }
  return undefined;
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function touch(file: string): void {
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // Gone: the next heartbeat reports the loss.
  }
}

function removeIfPresent(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** Blocks for `ms`: the lock is taken while the bridge is created, which is synchronous. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
