/**
 * Where a bridge keeps its sessions' checkpoints: one shadow repository per session in
 * `<sessions dir>/.checkpoints/<key>`, outside the workspace (the user's own `.git` is never
 * touched) and, under the sandbox, out of pi's sight (the sessions directory is hidden from it, so
 * no pi can plant a hook or a config the bridge's `git` would run). In cluster mode the sessions
 * directory is the shared storage: the checkpoints move with the session's lease.
 */
import { rm, stat } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { Checkpoints } from "@pi-kit/client/node";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";
import type { SessionKey } from "../principals/owner.ts";
import { SessionCheckpoints } from "./session-checkpoints.ts";

/** The directory of the shadow repositories, in the sessions directory. */
export const CHECKPOINTS_DIR = ".checkpoints";

/** How a bridge keeps checkpoints (`BridgeOptions.checkpoints`). */
export interface CheckpointSettings {
  /** The git executable. Default `git` on `PATH`. */
  readonly git?: string;
  /**
   * Untracked files larger than this (bytes) are not snapshotted: listed as changed (`tooLarge`),
   * never revertible. Default 5 MiB (the CLI's `--checkpoint-max-file-bytes`).
   */
  readonly maxFileBytes?: number;
}

/** Options of a {@link CheckpointStore}. */
export interface CheckpointStoreOptions extends CheckpointSettings {
  readonly sessionsDir: string;
  /** The workspace (pi's working directory) of session `key`. */
  readonly workspaceOf: (key: SessionKey) => Promise<string>;
  /**
   * Whether this bridge may write session `key`'s storage now (in cluster mode: it holds the
   * lease, deadline not passed), asked right before each write. Default: always.
   */
  readonly mayWrite?: (key: SessionKey) => boolean;
}

/** The checkpoints of a bridge's sessions. */
export class CheckpointStore {
  readonly #options: CheckpointStoreOptions;
  /** The checkpoints of sessions whose pi runs here. */
  readonly #live = new Map<SessionKey, SessionCheckpoints>();
  /** Git work in progress, of any session: a closing bridge waits for it (see {@link settled}). */
  readonly #work = new Set<Promise<unknown>>();

  constructor(options: CheckpointStoreOptions) {
    this.#options = options;
  }

  /** Session `key`'s pi starts here: its checkpoints, opened afresh (another node may have written). */
  started(key: SessionKey): SessionCheckpoints {
    const checkpoints = this.#open(key);
    this.#live.set(key, checkpoints);
    // The session logs the failure as it waits for its checkpoint; the API opens it afresh.
    checkpoints.opened().catch(() => {
      if (this.#live.get(key) === checkpoints) this.#live.delete(key);
    });
    return checkpoints;
  }

  /** Session `key`'s pi has exited (`checkpoints`: what {@link started} gave it). */
  ended(key: SessionKey, checkpoints: SessionCheckpoints): void {
    if (this.#live.get(key) === checkpoints) this.#live.delete(key);
  }

  /** The bridge lost session `key`: from now on its checkpoints are written no more. */
  fence(key: SessionKey): void {
    this.#live.get(key)?.fence();
    this.#live.delete(key);
  }

  /** Session `key`'s checkpoints, or `undefined` when it has none (call under the session's claim). */
  async of(key: SessionKey): Promise<SessionCheckpoints | undefined> {
    const live = this.#live.get(key);
    if (live !== undefined) return live;
    const exists = await stat(join(this.#dirOf(key), "git")).then(
      () => true,
      () => false,
    );
    if (!exists) return undefined;
    const checkpoints = this.#open(key);
    await checkpoints.opened().catch((cause: unknown) => {
      throw new BridgeError(
        BridgeErrorCode.CheckpointsOff,
        "The bridge cannot read this session's checkpoints (is git installed?)",
        { cause },
      );
    });
    return checkpoints;
  }

  /** Settles once the git work started so far is done: a bridge closes only then. */
  async settled(): Promise<void> {
    while (this.#work.size > 0) await Promise.allSettled([...this.#work]);
  }

  /** Removes session `key`'s checkpoints (the session was deleted). */
  async remove(key: SessionKey): Promise<void> {
    this.#live.delete(key);
    await rm(this.#dirOf(key), { recursive: true, force: true });
  }

  #dirOf(key: SessionKey): string {
    return join(this.#options.sessionsDir, CHECKPOINTS_DIR, key);
  }

  #open(key: SessionKey): SessionCheckpoints {
    const mayWrite = this.#options.mayWrite;
    return new SessionCheckpoints(
      this.#track(this.#openRepository(key)),
      mayWrite === undefined ? undefined : () => mayWrite(key),
      (work) => this.#track(work),
    );
  }

  #track<T>(work: Promise<T>): Promise<T> {
    this.#work.add(work);
    const done = (): void => {
      this.#work.delete(work);
    };
    work.then(done, done);
    return work;
  }

  async #openRepository(key: SessionKey): Promise<Checkpoints> {
    const { sessionsDir, git, maxFileBytes } = this.#options;
    const workspace = await this.#options.workspaceOf(key);
    // pi's session files and the shadow repositories are never the workspace's content.
    const exclude = [sessionsDir]
      .map((dir) => relative(workspace, dir))
      .filter((path) => path !== "" && !path.startsWith("..") && !isAbsolute(path))
      .map((path) => path.split(sep).join("/"));
    return Checkpoints.open({
      workspace,
      dir: this.#dirOf(key),
      exclude,
      ...(git === undefined ? {} : { git }),
      ...(maxFileBytes === undefined ? {} : { maxFileBytes }),
    });
  }
}
