/**
 * The history of one owner of a bridge (the bridge itself, or a ticket user): every session in the
 * owner's directory, running or not, with the operations of the HTTP API. It joins the owner's
 * store (what is on disk) and the bridge's registry (which pi runs), and keeps work on one
 * session's files from racing that session's pi.
 */
import type { SessionPage, SessionSummary } from "@pi-kit/protocol/bridge";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";
import { type BridgeLogger, safeLog } from "../logging/logger.ts";
import { BRIDGE_OWNER, type SessionKey, sessionKey, splitKey } from "../principals/owner.ts";
import type { Session } from "../sessions/session.ts";
import {
  assertSessionName,
  isSessionName,
  type SessionRegistry,
} from "../sessions/session-registry.ts";
import type { Workspaces } from "../sessions/workspaces.ts";
import { nameStoredSession } from "./name-stored-session.ts";
import { describeError } from "./session-directory.ts";
import { InvalidCursorError, type PageQuery } from "./session-index.ts";
import { sessionName } from "./session-name-writer.ts";
import type { SessionStore } from "./session-store.ts";
import { resumableFile } from "./stored-session.ts";

/** The longest session title the API accepts. */
export const MAX_TITLE_CHARS = 500;

/** Options of a {@link BridgeHistory}. */
export interface BridgeHistoryOptions {
  readonly logger: BridgeLogger;
  /** Whose sessions these are (see `userOwner`). Default: the bridge's own. */
  readonly owner?: string;
  /** The sessions' own working directories, if they have them: deleting a session removes its own. */
  readonly workspaces?: Workspaces;
  /** Where the sessions' checkpoints are kept: deleting a session removes its own. */
  readonly checkpoints?: { remove(key: SessionKey): Promise<void> } | undefined;
  /** Where each session's controller is remembered: deleting a session forgets it. */
  readonly controlMemory?: ((key: SessionKey) => { forget(): Promise<void> }) | undefined;
  /** Sessions of `keys` another node runs now (cluster mode, from the lease store). */
  readonly runningElsewhere?: (keys: readonly SessionKey[]) => Promise<Set<SessionKey>>;
}

/** Every session of a bridge, running or not. */
export class BridgeHistory {
  readonly #registry: SessionRegistry;
  readonly #store: SessionStore;
  readonly #logger: BridgeLogger;
  readonly #owner: string;
  readonly #workspaces: Workspaces | undefined;
  readonly #options: BridgeHistoryOptions;
  /** The live activity each running session's record was last read at. */
  readonly #readAt = new Map<string, number>();
  /** Work started when a pi exits, awaited on close. */
  readonly #exits = new Set<Promise<void>>();

  constructor(registry: SessionRegistry, store: SessionStore, options: BridgeHistoryOptions) {
    this.#registry = registry;
    this.#store = store;
    this.#logger = options.logger;
    this.#owner = options.owner ?? BRIDGE_OWNER;
    this.#workspaces = options.workspaces;
    this.#options = options;
  }

  /** One page of the history, newest activity first. */
  async list(query: PageQuery): Promise<SessionPage> {
    await this.#store.ready;
    const names = new Set(this.#store.liveNames());
    for (const session of this.#registry.all()) {
      if (splitKey(session.key).owner === this.#owner) names.add(session.name);
    }
    await Promise.all([...names].map((name) => this.#sync(name)));
    this.#store.maybeRescan();
    try {
      const page = this.#store.page(query);
      const shown = page.sessions.map((session) => session.name);
      return (await this.#overlayElsewhere(shown)) ? this.#store.page(query) : page;
    } catch (error) {
      if (!(error instanceof InvalidCursorError)) throw error;
      throw new BridgeError(BridgeErrorCode.InvalidCursor, error.message);
    }
  }

  /** The summary of session `name`, or `undefined` when there is no such session. */
  async get(name: string): Promise<SessionSummary | undefined> {
    if (!isSessionName(name)) return undefined;
    await this.#store.ready;
    await this.#sync(name, true);
    await this.#overlayElsewhere([name]);
    return this.#store.summary(name);
  }

  /**
   * Shows sessions of `names` that run on another node as live (cluster mode: the lease store
   * says who runs what). Whether such a pi is in a run is that node's to know: they show as idle.
   */
  async #overlayElsewhere(names: readonly string[]): Promise<boolean> {
    const elsewhere = this.#options.runningElsewhere;
    if (elsewhere === undefined) return false;
    const keys = names
      .filter((name) => this.#registry.get(this.#key(name))?.alive !== true)
      .map((name) => this.#key(name));
    if (keys.length === 0) return false;
    const running = await elsewhere(keys).catch(() => new Set<SessionKey>());
    for (const key of running) {
      this.#store.setLive(splitKey(key).name, { state: "idle", lastActivityMs: 0 });
    }
    return running.size > 0;
  }

  /**
   * Opens session `name`: its running pi, or a pi started on its latest session file. A session
   * that is not on disk is created when `create` is set, else it is an `unknown_session` error.
   * `existed` tells whether the session was there before.
   */
  async open(name: string, create: boolean): Promise<{ session: Session; existed: boolean }> {
    assertSessionName(name);
    await this.#store.ready;
    const running = this.#registry.get(this.#key(name));
    if (running?.alive) return { session: running, existed: true };
    const existed = running !== undefined || (await this.#store.refresh(name)) !== undefined;
    if (!existed && !create) {
      throw new BridgeError(BridgeErrorCode.UnknownSession, `No session named ${name}`);
    }
    const { session } = await this.#registry.open(this.#key(name));
    await this.#sync(name, true);
    return { session, existed };
  }

  /**
   * Sets session `name`'s title (pi's session name): through its pi when it runs, else in its
   * session file, in pi's format. Resolves the new summary.
   */
  async rename(name: string, title: string): Promise<SessionSummary> {
    assertSessionName(name);
    const clean = sessionName(title);
    if (clean === "" || clean.length > MAX_TITLE_CHARS) {
      throw new BridgeError(
        BridgeErrorCode.InvalidRequest,
        `A title is 1-${MAX_TITLE_CHARS} characters, not only spaces`,
      );
    }
    await this.#store.ready;
    await this.#registry.exclusive(this.#key(name), async ({ session }) => {
      if (session?.alive) await session.setName(clean);
      else await nameStoredSession(this.#store, name, clean);
    });
    return this.#summaryOf(name);
  }

  /** Stops session `name`'s pi and keeps its files. Resolves the summary. */
  async stop(name: string): Promise<SessionSummary> {
    assertSessionName(name);
    await this.#store.ready;
    await this.#registry.exclusive(this.#key(name), async (held) => {
      const session = held.session;
      await held.stop("closed");
      if (session !== undefined) await this.#settle(session);
    });
    return this.#summaryOf(name);
  }

  /**
   * Stops session `name`'s pi and removes its directory (and its workspace, if it has one of its
   * own): the one operation that deletes user data.
   */
  async delete(name: string): Promise<void> {
    assertSessionName(name);
    await this.#store.ready;
    await this.#registry.exclusive(this.#key(name), async (held) => {
      const stopped = await held.stop("deleted");
      const record = await this.#store.refresh(name);
      if (stopped === undefined && record === undefined) {
        throw new BridgeError(BridgeErrorCode.UnknownSession, `No session named ${name}`);
      }
      await this.#store.remove(name);
      await this.#workspaces?.remove(this.#key(name));
      await this.#options.checkpoints?.remove(this.#key(name));
      // A new session of the same name waits for no viewer of the deleted one.
      await this.#options.controlMemory?.(this.#key(name)).forget();
      this.#readAt.delete(name);
      safeLog(this.#logger, { event: "session_deleted", session: this.#key(name) });
    });
  }

  /**
   * Brings the history up to date after session `name`'s pi exited: its files as pi left them,
   * and a name pi announced but never saved (pi saves a new session with its first message).
   */
  exited(session: Session): void {
    const work = this.#registry
      .exclusive(session.key, async (held) => {
        if (!held.session?.alive) await this.#settle(session);
      })
      .catch((error) => {
        safeLog(this.#logger, {
          event: "history_error",
          operation: `exit of ${session.key}`,
          error: describeError(error),
        });
      });
    this.#exits.add(work);
    void work.finally(() => this.#exits.delete(work));
  }

  /** Waits for the work started by exits, then saves the index. */
  async close(): Promise<void> {
    await Promise.all([...this.#exits]);
    await this.#store.close();
  }

  /** Reads a session's files as its exited pi left them, and saves a name pi announced but did not. */
  async #settle(session: Session): Promise<void> {
    const record = await this.#store.refresh(session.name);
    const announced = session.announcedName;
    if (record !== undefined && record.error === undefined && typeof announced === "string") {
      const saved = resumableFile(record)?.digest?.name;
      if (saved !== announced || record.pendingName !== undefined) {
        await nameStoredSession(this.#store, session.name, announced);
      }
    }
    this.#store.setLive(session.name, undefined);
    this.#readAt.delete(session.name);
  }

  /** The registry key of `name`; throws `invalid_session_name` first, so no lookup sees a bad name. */
  #key(name: string): SessionKey {
    return sessionKey(this.#owner, name);
  }

  async #summaryOf(name: string): Promise<SessionSummary> {
    await this.#sync(name, true);
    const summary = this.#store.summary(name);
    if (summary === undefined) {
      throw new BridgeError(BridgeErrorCode.UnknownSession, `No session named ${name}`);
    }
    return summary;
  }

  /**
   * Updates session `name` in the index: its live state, and its files when its pi was active
   * since they were last read (or `force`).
   */
  async #sync(name: string, force = false): Promise<void> {
    const live = this.#registry.get(this.#key(name))?.live();
    const activity = live?.touchedMs ?? live?.lastActivityMs;
    if (force || this.#store.record(name) === undefined || activity !== this.#readAt.get(name)) {
      await this.#store.refresh(name);
      if (activity === undefined) this.#readAt.delete(name);
      else this.#readAt.set(name, activity);
    }
    this.#store.setLive(name, live);
  }
}
