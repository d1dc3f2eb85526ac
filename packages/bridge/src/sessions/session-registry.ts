/**
 * The running sessions of a bridge by key (owner and name, see `owner.ts`; the name alone for the
 * bridge's own sessions): starting (or resuming) under the cap, lookup, stopping, and the reaper
 * that stops sessions left without a client past the grace period (or idle past `idleMs`).
 * Starting, stopping and {@link SessionRegistry.exclusive} tasks run one at a time per key.
 */
import { join } from "node:path";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";
import { safeLog } from "../logging/logger.ts";
import type { SessionPlacement } from "../placement/session-placement.ts";
import {
  assertSessionKey,
  BRIDGE_OWNER,
  parseSessionKey,
  type SessionKey,
  splitKey,
} from "../principals/owner.ts";
import { KeyedLock } from "./keyed-lock.ts";
import { Session } from "./session.ts";
import type { CloseReason, SessionInfo } from "./session-info.ts";
import type { SessionSettings, StartPlan } from "./session-settings.ts";

export { isSessionKey } from "../principals/owner.ts";
export { assertSessionName, isSessionName } from "../principals/session-name.ts";

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
  /** Where sessions' files are: how each pi starts, and what an exit changes. Default: fresh starts. */
  readonly lifecycle?: SessionLifecycle;
  /** Whether this bridge may run a session; claimed before its pi starts or its files change. Default: always. */
  readonly placement?: SessionPlacement;
  /** Called once each pi ends, with why (for metrics). */
  readonly onPiExit?: (session: Session, reason: PiExitReason) => void;
}

/** Why a pi ended: it exited by itself (`exit` with 0, `crash` otherwise), was `stopped`, or `fenced`. */
export type PiExitReason = "exit" | "crash" | "stopped" | "fenced";

/** What the registry asks of whoever keeps the sessions' files (see `PrincipalStores`). */
export interface SessionLifecycle {
  /** Plans how session `key`'s pi starts, e.g. on its latest session file. */
  planStart(key: SessionKey): Promise<StartPlan>;
  /** Called once a session's pi has exited, whatever ended it. */
  exited(session: Session): void;
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
  readonly #sessions = new Map<SessionKey, Session>();
  /** Sessions being spawned: they count against the cap and dedupe concurrent creates. */
  readonly #starting = new Map<SessionKey, Promise<Session>>();
  /** Sessions the reaper is stopping, so later passes leave them alone. */
  readonly #reaping = new Set<Session>();
  /** Sessions killed because the bridge lost them: their files are the new owner's. */
  readonly #fenced = new WeakSet<Session>();
  /** Keys fenced while their pi was starting: fenced the moment it has started. */
  readonly #fenceOnStart = new Set<SessionKey>();
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

  /** The live or exited session with this key; `undefined` for a string that is no session key. */
  get(key: string): Session | undefined {
    const parsed = parseSessionKey(key);
    return parsed === undefined ? undefined : this.#sessions.get(parsed);
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
    const parsed = assertSessionKey(key);
    return this.#lock.run(parsed, () => this.#open(parsed));
  }

  /** Stops session `key` gracefully and forgets it (its files stay); `undefined` when there is none. */
  close(key: string, reason: CloseReason = "closed"): Promise<SessionInfo | undefined> {
    const parsed = parseSessionKey(key);
    if (parsed === undefined) return Promise.resolve(undefined);
    return this.#lock.run(parsed, async () => {
      const info = await this.#stop(parsed, reason);
      await this.#releaseUnused(parsed);
      return info;
    });
  }

  /**
   * Runs `task` while no other start, stop or exclusive task runs for session `key`: for work on
   * the session's files that must not race its pi.
   */
  exclusive<T>(key: SessionKey, task: (held: HeldSession) => Promise<T>): Promise<T> {
    return this.#lock.run(key, async () => {
      await this.#settings.placement?.claim(key);
      try {
        return await task({
          session: this.#sessions.get(key),
          stop: (reason) => this.#stop(key, reason),
        });
      } finally {
        await this.#releaseUnused(key);
      }
    });
  }

  /**
   * The bridge lost the right to run session `key` (its lease ran out unrenewed, or another node
   * holds it): kills its pi at once and closes its sockets with 1012, outside the key's lock (a
   * stop or start waiting there must not delay it). Its files are left to the new owner.
   */
  fence(key: SessionKey): void {
    // Its claim was lost under the start: the new pi must not serve either.
    if (this.#starting.has(key)) this.#fenceOnStart.add(key);
    const session = this.#sessions.get(key);
    if (session === undefined) return;
    this.#sessions.delete(key);
    this.#fenced.add(session);
    session.fence();
  }

  /** The bridge lost the right to run any session (a cluster node's life ended): fences them all. */
  fenceAll(): void {
    for (const key of new Set([...this.#sessions.keys(), ...this.#starting.keys()]))
      this.fence(key);
  }

  async #open(key: SessionKey): Promise<{ session: Session; created: boolean }> {
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
      await this.#settings.placement?.claim(key);
      const plan = (await this.#settings.lifecycle?.planStart(key)) ?? { args: [] };
      const dir = join(this.#settings.sessionsDir, key);
      return Session.start(splitKey(key).name, dir, this.#settings, plan, key);
    })();
    this.#starting.set(key, starting);
    try {
      const session = await starting;
      this.#sessions.set(key, session);
      void session.exited.then((exit) => {
        const fenced = this.#fenced.has(session);
        this.#settings.onPiExit?.(
          session,
          fenced
            ? "fenced"
            : exit.stoppedByBridge
              ? "stopped"
              : exit.exitCode === 0
                ? "exit"
                : "crash",
        );
        // A fenced session's files belong to its new owner now: nothing here touches them.
        if (!fenced) this.#settings.lifecycle?.exited(session);
      });
      if (this.#fenceOnStart.delete(key)) this.fence(key);
      else void this.#recordFile(session);
      return { session, created: true };
    } catch (error) {
      await this.#releaseUnused(key);
      throw error;
    } finally {
      this.#starting.delete(key);
      this.#fenceOnStart.delete(key);
    }
  }

  /**
   * Records the file a new pi writes with the placement (a cluster lease names it, so the node
   * that runs the session next resumes it): the resumed one, or for a fresh session the one pi says it will create.
   */
  async #recordFile(session: Session): Promise<void> {
    const record = this.#settings.placement?.recordFile;
    if (record === undefined) return;
    let file = session.info().resumedFrom ?? undefined;
    if (file === undefined) {
      const state = await session.request({ type: "get_state" }).catch(() => undefined);
      const named = (state?.data as { sessionFile?: unknown } | undefined)?.sessionFile;
      if (typeof named === "string") file = named;
    }
    if (file !== undefined) await record.call(this.#settings.placement, session.key, file);
  }

  /** Gives session `key` up once no pi of its runs here (a stop, a failed start, settled files). */
  async #releaseUnused(key: SessionKey): Promise<void> {
    if (this.#sessions.get(key)?.alive || this.#starting.has(key)) return;
    await this.#settings.placement?.release(key);
  }

  async #stop(key: SessionKey, reason: CloseReason): Promise<SessionInfo | undefined> {
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
          await this.#releaseUnused(session.key);
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

  /**
   * Stops every session gracefully (stdin first, in parallel) and the reaper. The placement is
   * given up by its own `close()`, after the histories settled the files pi left.
   */
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

  /** Resolves once no session is in a run, or after `timeoutMs` (a drain lets turns settle). */
  async settled(timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    // A run's end has no event of its own here; a coarse poll bounds the wait well enough.
    while (this.all().some((s) => s.alive && s.info().streaming)) {
      if (performance.now() >= deadline) return;
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(100, deadline - performance.now())),
      );
    }
  }
}
