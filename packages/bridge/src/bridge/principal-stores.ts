/**
 * Which store and history belong to which principal: the bridge itself (its static token) or a
 * ticket user, each with a directory of its own under the sessions directory. This is the one
 * place that joins the running sessions (the registry) to the files on disk (the stores): the
 * registry asks it how a session's pi starts and tells it when a pi exits, and each history reads
 * the registry, so neither holds a closure over the other. The registry claims each session from
 * a {@link SessionPlacement} before touching it.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { BridgeHistory } from "../history/bridge-history.ts";
import { INDEX_FILE } from "../history/index-file.ts";
import { SessionStore } from "../history/session-store.ts";
import { planStart } from "../history/start-plan.ts";
import type { BridgeLogger } from "../logging/logger.ts";
import { type SessionKey, splitKey } from "../principals/owner.ts";
import type { Session } from "../sessions/session.ts";
import {
  isSessionName,
  type RegistrySettings,
  type SessionLifecycle,
  SessionRegistry,
} from "../sessions/session-registry.ts";
import type { StartPlan } from "../sessions/session-settings.ts";
import type { Workspaces } from "../sessions/workspaces.ts";

/** How stale the history's index may get before reading it rescans the sessions directory. */
const HISTORY_RESCAN_MS = 60_000;
/** How long after a change the history's index file is saved. */
const INDEX_SAVE_DELAY_MS = 1000;

/** One principal's sessions on disk and its view of them. */
interface PrincipalSpace {
  readonly store: SessionStore;
  readonly history: BridgeHistory;
}

/** Options of {@link PrincipalStores}. */
export interface PrincipalStoresOptions {
  /** The registry's settings (the sessions directory, limits, pi, placement). */
  readonly registry: Omit<RegistrySettings, "lifecycle">;
  readonly logger: BridgeLogger;
  /** The sessions' own working directories, if they have them. */
  readonly workspaces?: Workspaces | undefined;
  /**
   * Where this bridge keeps its history index files, one directory per principal; default: in
   * each principal's sessions directory. Cluster nodes share that directory, so each keeps its own.
   */
  readonly indexDir?: string | undefined;
  /** Sessions another node runs now, of the given keys (cluster mode): the history shows them live. */
  readonly runningElsewhere?:
    | ((keys: readonly SessionKey[]) => Promise<Set<SessionKey>>)
    | undefined;
}

/** The running sessions of a bridge, and each principal's store and history, made on first use. */
export class PrincipalStores implements SessionLifecycle {
  /** The running sessions of every principal. */
  readonly registry: SessionRegistry;
  readonly #options: PrincipalStoresOptions;
  readonly #spaces = new Map<string, PrincipalSpace>();

  constructor(options: PrincipalStoresOptions) {
    this.#options = options;
    this.registry = new SessionRegistry({ ...options.registry, lifecycle: this });
  }

  /** The history of principal `owner` (see `userOwner`; `BRIDGE_OWNER` for the bridge's own). */
  historyOf(owner: string): BridgeHistory {
    return this.#spaceOf(owner).history;
  }

  /** Plans how session `key`'s pi starts: on its latest file, from its owner's store. */
  planStart(key: SessionKey): Promise<StartPlan> {
    const { owner, name } = splitKey(key);
    const preferred = this.#options.registry.placement?.resumableFile?.(key);
    return planStart(this.#spaceOf(owner).store, name, this.#options.logger, preferred);
  }

  /** Brings the owner's history up to date once a session's pi has exited. */
  exited(session: Session): void {
    this.#spaceOf(splitKey(session.key).owner).history.exited(session);
  }

  /** Waits for every history's pending work and saves each index (after the registry closed). */
  async close(): Promise<void> {
    await Promise.all([...this.#spaces.values()].map((space) => space.history.close()));
  }

  #spaceOf(owner: string): PrincipalSpace {
    let space = this.#spaces.get(owner);
    if (space === undefined) {
      const { logger, workspaces, indexDir, runningElsewhere } = this.#options;
      let indexPath: string | undefined;
      if (indexDir !== undefined) {
        // The bridge's own sessions are owner "": its index goes in the directory itself.
        const dir = join(indexDir, owner);
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        indexPath = join(dir, INDEX_FILE);
      }
      const store = new SessionStore({
        sessionsDir: join(this.#options.registry.sessionsDir, owner),
        ...(indexPath === undefined ? {} : { indexPath }),
        isSessionName,
        logger,
        rescanMs: HISTORY_RESCAN_MS,
        saveDelayMs: INDEX_SAVE_DELAY_MS,
      });
      const history = new BridgeHistory(this.registry, store, {
        logger,
        owner,
        ...(workspaces === undefined ? {} : { workspaces }),
        checkpoints: this.#options.registry.checkpoints,
        controlMemory: this.#options.registry.controlMemory,
        ...(runningElsewhere === undefined ? {} : { runningElsewhere }),
      });
      space = { store, history };
      this.#spaces.set(owner, space);
    }
    return space;
  }
}
