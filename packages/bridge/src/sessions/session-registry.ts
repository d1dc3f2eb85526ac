/**
 * The running sessions of a bridge by key (owner and name, see `owner.ts`; the name alone for the
 * bridge's own sessions): starting (or resuming) under the cap, lookup, stopping, and the reaper
 * that stops sessions left without a client past the grace period (or idle past `idleMs`).
 * Starting, stopping and {@link SessionRegistry.exclusive} tasks run one at a time per key.
 */
import { join } from "node:path";
import { BridgeError, BridgeErrorCode } from "../errors.ts";
import { safeLog } from "../logger.ts";
import { KeyedLock } from "./keyed-lock.ts";
import { BRIDGE_OWNER, isOwner, splitKey } from "./owner.ts";
import {
  type CloseReason,
  Session,
  type SessionInfo,
  type SessionSettings,
  type StartPlan,
} from "./session.ts";

/** A session name: it becomes a directory name, so no separators, dots first or `..`. */
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Whether `name` is a valid session name (1-64 of A-Z a-z 0-9 _ -, starting alphanumeric). */
export function isSessionName(name: string): boolean {
  return NAME_PATTERN.test(name);
}

/** Throws a `BridgeError` (`invalid_session_name`) unless `name` is a valid session name. */
export function assertSessionName(name: string): void {
  if (!isSessionName(name)) {
    throw new BridgeError(
      BridgeErrorCode.InvalidSessionName,
      "A session name is 1-64 characters of A-Z a-z 0-9 _ -, starting with a letter or digit",
    );
  }
}

/**
 * Whether `key` is a session key: a session name, or `_users/<user>/<name>` (see `userOwner`).
 * Such a key is a safe path below the sessions directory.
 */
export function isSessionKey(key: string): boolean {
  const { owner, name } = splitKey(key);
  return isSessionName(name) && isOwner(owner);
}

/** Limits and timings of the registry. */
export interface RegistrySettings extends SessionSettings {
  /** Directory holding one sub-directory per session. */
  readonly sessionsDir: string;
  /** Most sessions at once, exited ones included until reaped. */
  readonly maxSessions: number;
  /** Most sessions of one ticket user at once (the bridge's own count only against `maxSessions`). */
  readonly maxSessionsPerUser: number;
  /** How long a session without a client keeps running. */
  readonly graceMs: number;
  /** How long an attached session may see no record either way; 0 disables. */
  readonly idleMs: number;
  /** Plans how session `key`'s pi starts, e.g. on its latest session file. Default: fresh. */
  readonly planStart?: (key: string) => Promise<StartPlan>;
  /** Called once a session's pi has exited, whatever ended it. */
  readonly onExit?: (session: Session) => void;
}

/** A session held by {@link SessionRegistry.exclusive}: nothing else starts or stops it meanwhile. */
export interface HeldSession {
  /** The session's pi (running or exited), if the bridge has one. */
  readonly session: Session | undefined;
  /** Stops its pi gracefully and forgets it; `undefined` when there was none. */
  stop(reason: CloseReason): Promise<SessionInfo | undefined>;
}

/** The sessions of one bridge. */
export class SessionRegistry {
  readonly #settings: RegistrySettings;
  readonly #sessions = new Map<string, Session>();
  /** Sessions being spawned: they count against the cap and dedupe concurrent creates. */
  readonly #starting = new Map<string, Promise<Session>>();
  /** Sessions the reaper is stopping, so later passes leave them alone. */
  readonly #reaping = new Set<Session>();
  readonly #lock = new KeyedLock();
  readonly #reaper: ReturnType<typeof setInterval>;
  #closing = false;

  constructor(settings: RegistrySettings) {
    this.#settings = settings;
    const every = Math.min(1000, Math.max(20, Math.floor(settings.graceMs / 4)));
    this.#reaper = setInterval(() => this.reap(), every);
    // The reaper alone must not keep a Node or Bun process alive.
    (this.#reaper as { unref?: () => void }).unref?.();
  }

  /** The live or exited session with this key. */
  get(key: string): Session | undefined {
    return this.#sessions.get(key);
  }

  /** Every session the registry holds (running, or exited and not reaped yet). */
  all(): Session[] {
    return [...this.#sessions.values()];
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
   * Returns the running session `key`, starting its pi when it has none (or its pi has exited):
   * on the session's latest file when it has one (see `planStart`). `created` tells whether a pi
   * was spawned. Throws a `BridgeError`: `invalid_session_name`, `too_many_sessions`,
   * `session_unreadable`, `spawn_failed` or `closing`.
   */
  open(key: string): Promise<{ session: Session; created: boolean }> {
    // A key is a name for the bridge's own sessions, so a bad one gets the name's error.
    if (!isSessionKey(key)) assertSessionName("");
    return this.#lock.run(key, () => this.#open(key));
  }

  /** Stops session `key` gracefully and forgets it (its files stay); `undefined` when there is none. */
  close(key: string, reason: CloseReason = "closed"): Promise<SessionInfo | undefined> {
    return this.#lock.run(key, () => this.#stop(key, reason));
  }

  /**
   * Runs `task` while no other start, stop or exclusive task runs for session `key`: for work on
   * the session's files that must not race its pi.
   */
  exclusive<T>(key: string, task: (held: HeldSession) => Promise<T>): Promise<T> {
    return this.#lock.run(key, () =>
      task({
        session: this.#sessions.get(key),
        stop: (reason) => this.#stop(key, reason),
      }),
    );
  }

  async #open(key: string): Promise<{ session: Session; created: boolean }> {
    if (this.#closing) throw new BridgeError(BridgeErrorCode.Closing, "The bridge is closing");
    const existing = this.#sessions.get(key);
    if (existing?.alive) return { session: existing, created: false };
    // An exited session is replaced by a new pi on the same session directory.
    if (existing === undefined && this.size >= this.#settings.maxSessions) {
      throw new BridgeError(
        BridgeErrorCode.TooManySessions,
        `The bridge runs at most ${this.#settings.maxSessions} sessions; close one first`,
      );
    }
    const { owner } = splitKey(key);
    if (existing === undefined && owner !== BRIDGE_OWNER) {
      const keys = [...this.#sessions.keys(), ...this.#starting.keys()];
      const owned = keys.filter((other) => splitKey(other).owner === owner).length;
      if (owned >= this.#settings.maxSessionsPerUser) {
        throw new BridgeError(
          BridgeErrorCode.TooManySessions,
          `A user runs at most ${this.#settings.maxSessionsPerUser} sessions; close one first`,
        );
      }
    }
    const starting = (async () => {
      const plan = (await this.#settings.planStart?.(key)) ?? { args: [] };
      const dir = join(this.#settings.sessionsDir, key);
      return Session.start(splitKey(key).name, dir, this.#settings, plan, key);
    })();
    this.#starting.set(key, starting);
    try {
      const session = await starting;
      this.#sessions.set(key, session);
      void session.exited.then(() => this.#settings.onExit?.(session));
      return { session, created: true };
    } finally {
      this.#starting.delete(key);
    }
  }

  async #stop(key: string, reason: CloseReason): Promise<SessionInfo | undefined> {
    const session = this.#sessions.get(key);
    if (session === undefined) return undefined;
    await session.close(reason);
    if (this.#sessions.get(key) === session) this.#sessions.delete(key);
    return session.info();
  }

  /** One reaper pass: ends sessions without a client past the grace period, and idle ones. */
  reap(now: number = performance.now(), wallNow: number = Date.now()): void {
    for (const session of this.#sessions.values()) {
      if (this.#reaping.has(session)) continue;
      const reason = this.#reapReason(session, now, wallNow);
      if (reason === undefined) continue;
      this.#reaping.add(session);
      this.#lock
        .run(session.key, async () => {
          // Decided again in turn: a client may have come back, or the key may have a new pi.
          if (this.#sessions.get(session.key) !== session) return;
          const still = this.#reapReason(session, performance.now(), Date.now());
          if (still === undefined) return;
          safeLog(this.#settings.logger, {
            event: "session_reaped",
            session: session.key,
            reason: still,
          });
          await this.#stop(session.key, still);
        })
        .catch(() => {
          // close() only awaits the stop sequence, which ends with SIGKILL; nothing left to do.
        })
        .finally(() => this.#reaping.delete(session));
    }
  }

  #reapReason(session: Session, now: number, wallNow: number): "grace" | "idle" | undefined {
    if (!session.attached && session.detachedFor(now) > this.#settings.graceMs) return "grace";
    if (this.#settings.idleMs > 0 && session.idleFor(wallNow) > this.#settings.idleMs)
      return "idle";
    return undefined;
  }

  /** Stops every session gracefully (stdin first, in parallel) and the reaper. */
  async closeAll(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#reaper);
    await Promise.allSettled([...this.#starting.values()]);
    await Promise.all(
      [...this.#sessions.values()].map(async (session) => {
        await session.close("shutdown");
        this.#sessions.delete(session.key);
      }),
    );
  }
}
