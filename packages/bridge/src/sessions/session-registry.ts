/**
 * All sessions of a bridge by name: creation under the cap, lookup, closing, and the reaper that
 * stops sessions left without a client past the grace period (or idle past `idleMs`).
 */
import { join } from "node:path";
import { BridgeError, BridgeErrorCode } from "../errors.ts";
import { safeLog } from "../logger.ts";
import { Session, type SessionInfo, type SessionSettings } from "./session.ts";

/** A session name: it becomes a directory name, so no separators, dots first or `..`. */
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Whether `name` is a valid session name (1-64 of A-Z a-z 0-9 _ -, starting alphanumeric). */
export function isSessionName(name: string): boolean {
  return NAME_PATTERN.test(name);
}

/** Limits and timings of the registry. */
export interface RegistrySettings extends SessionSettings {
  /** Directory holding one sub-directory per session. */
  readonly sessionsDir: string;
  /** Most sessions at once, exited ones included until reaped. */
  readonly maxSessions: number;
  /** How long a session without a client keeps running. */
  readonly graceMs: number;
  /** How long an attached session may see no record either way; 0 disables. */
  readonly idleMs: number;
}

/** The sessions of one bridge. */
export class SessionRegistry {
  readonly #settings: RegistrySettings;
  readonly #sessions = new Map<string, Session>();
  /** Sessions being spawned: they count against the cap and dedupe concurrent creates. */
  readonly #starting = new Map<string, Promise<Session>>();
  /** Sessions the reaper is stopping, so later passes leave them alone. */
  readonly #reaping = new Set<Session>();
  readonly #reaper: ReturnType<typeof setInterval>;
  #closing = false;

  constructor(settings: RegistrySettings) {
    this.#settings = settings;
    const every = Math.min(1000, Math.max(20, Math.floor(settings.graceMs / 4)));
    this.#reaper = setInterval(() => this.reap(), every);
    // The reaper alone must not keep a Node or Bun process alive.
    (this.#reaper as { unref?: () => void }).unref?.();
  }

  /** The live or exited session called `name`. */
  get(name: string): Session | undefined {
    return this.#sessions.get(name);
  }

  /** How many sessions exist (starting ones included). */
  get size(): number {
    return this.#sessions.size + this.#starting.size;
  }

  /** Snapshots of every session, by name. */
  list(): SessionInfo[] {
    return [...this.#sessions.values()]
      .map((session) => session.info())
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Returns the running session `name`, starting it when missing (or restarting it when its pi
   * has exited). `created` tells whether a pi was spawned. Throws a `BridgeError`:
   * `invalid_session_name`, `too_many_sessions`, `spawn_failed` or `closing`.
   */
  async open(name: string): Promise<{ session: Session; created: boolean }> {
    if (this.#closing) throw new BridgeError(BridgeErrorCode.Closing, "The bridge is closing");
    if (!isSessionName(name)) {
      throw new BridgeError(
        BridgeErrorCode.InvalidSessionName,
        "A session name is 1-64 characters of A-Z a-z 0-9 _ -, starting with a letter or digit",
      );
    }
    const existing = this.#sessions.get(name);
    if (existing?.alive) return { session: existing, created: false };
    const pending = this.#starting.get(name);
    if (pending !== undefined) return { session: await pending, created: false };
    // An exited session is replaced by a fresh pi in the same directory.
    const replacing = existing !== undefined;
    if (!replacing && this.size >= this.#settings.maxSessions) {
      throw new BridgeError(
        BridgeErrorCode.TooManySessions,
        `The bridge runs at most ${this.#settings.maxSessions} sessions; close one first`,
      );
    }
    const starting = Session.start(name, join(this.#settings.sessionsDir, name), this.#settings);
    this.#starting.set(name, starting);
    try {
      const session = await starting;
      this.#sessions.set(name, session);
      return { session, created: true };
    } finally {
      this.#starting.delete(name);
    }
  }

  /** Stops session `name` gracefully and forgets it; `undefined` when there is none. */
  async close(
    name: string,
    reason: "closed" | "idle" | "grace" = "closed",
  ): Promise<SessionInfo | undefined> {
    const session = this.#sessions.get(name);
    if (session === undefined) return undefined;
    await session.close(reason);
    if (this.#sessions.get(name) === session) this.#sessions.delete(name);
    return session.info();
  }

  /** One reaper pass: ends sessions without a client past the grace period, and idle ones. */
  reap(now: number = performance.now(), wallNow: number = Date.now()): void {
    for (const session of this.#sessions.values()) {
      if (this.#reaping.has(session)) continue;
      let reason: "grace" | "idle" | undefined;
      if (!session.attached && session.detachedFor(now) > this.#settings.graceMs) reason = "grace";
      else if (this.#settings.idleMs > 0 && session.idleFor(wallNow) > this.#settings.idleMs)
        reason = "idle";
      if (reason === undefined) continue;
      safeLog(this.#settings.logger, { event: "session_reaped", session: session.name, reason });
      this.#reaping.add(session);
      this.close(session.name, reason)
        .catch(() => {
          // close() only awaits the stop sequence, which ends with SIGKILL; nothing left to do.
        })
        .finally(() => this.#reaping.delete(session));
    }
  }

  /** Stops every session gracefully (stdin first, in parallel) and the reaper. */
  async closeAll(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#reaper);
    await Promise.allSettled([...this.#starting.values()]);
    await Promise.all(
      [...this.#sessions.values()].map(async (session) => {
        await session.close("shutdown");
        this.#sessions.delete(session.name);
      }),
    );
  }
}
