/**
 * The checkpoints of one session's workspace, as the changes API serves them: a `Checkpoints`
 * shadow repository (see `@pi-kit/client/node`) with the API's checks on top (known checkpoint
 * ids, paths confined to the workspace) and its answers' shapes. Once the bridge lost the session
 * (a cluster lease taken over), it writes nothing more: a fenced owner never writes.
 */

import { CheckpointError, type Checkpoints } from "@pi-kit/client/node";
import type { ChangeSet, CheckpointSummary, FileDiff } from "@pi-kit/protocol/bridge";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";

/** The label of the checkpoint taken as a session's pi starts. */
export const SESSION_START_LABEL = "session start";
/** The longest label of a run's checkpoint (the prompt's first line, trimmed). */
export const MAX_LABEL_CHARS = 80;

const CHECKPOINT_ID = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/;

/** The checkpoints of one session, with the changes API's checks and answers. */
export class SessionCheckpoints {
  /** The shadow repository, once open (a rejection: it could not be opened). */
  readonly #checkpoints: Promise<Checkpoints>;
  #fenced = false;
  /** The session-start checkpoint being taken: reads wait for it, so none finds the list empty. */
  #starting: Promise<unknown> = Promise.resolve();

  /** Whether this bridge may still write the session's storage (its cluster lease is held). */
  readonly #mayWrite: () => boolean;
  /** Told of each operation, so a bridge stops only once its git work is done. */
  readonly #track: <T>(work: Promise<T>) => Promise<T>;

  constructor(
    checkpoints: Promise<Checkpoints>,
    mayWrite: () => boolean = () => true,
    track: <T>(work: Promise<T>) => Promise<T> = (work) => work,
  ) {
    this.#checkpoints = checkpoints;
    this.#mayWrite = mayWrite;
    this.#track = track;
  }

  /** Settles once the shadow repository is open (rejects when it cannot be). */
  async opened(): Promise<void> {
    await this.#checkpoints;
  }

  /** Takes the session-start checkpoint, unless the session has checkpoints already (a resume). */
  sessionStart(): Promise<void> {
    const started = this.#track(
      (async () => {
        const checkpoints = await this.#checkpoints;
        if ((await checkpoints.list()).length > 0) return;
        // Inside the tracked whole: a closing bridge waits for the list and the write as one.
        await this.#unlessFenced((c) => c.checkpoint(SESSION_START_LABEL));
      })(),
    );
    this.#starting = started.catch(() => undefined);
    return started;
  }

  /** Takes a run's checkpoint, labelled with the first line of its prompt. */
  async beforeRun(prompt: string): Promise<void> {
    await this.#write((c) => c.checkpoint(runLabel(prompt)));
  }

  /** The checkpoints, oldest first. */
  async list(): Promise<CheckpointSummary[]> {
    await this.#starting;
    return this.#track((await this.#checkpoints).list());
  }

  /** The files changed since `since` (default: the first checkpoint). */
  async changes(since?: string): Promise<ChangeSet> {
    const from = await this.#since(since);
    const checkpoints = await this.#checkpoints;
    const changes = await this.#track(checkpoints.changes(from));
    return { since: from, changes, skipped: await this.#track(checkpoints.skipped()) };
  }

  /** One file's diff since `since` (default: the first checkpoint). */
  async diff(path: string, since?: string): Promise<FileDiff> {
    const file = confinedPath(path);
    const from = await this.#since(since);
    const diff = await this.#track((await this.#checkpoints).diff(from, file));
    return { path: file, since: from, diff };
  }

  /** Puts `path` back as it was at `since`; answers the changes since `since` after it. */
  async revertFile(path: string, since?: string): Promise<ChangeSet> {
    const file = confinedPath(path);
    const from = await this.#since(since);
    await this.#write((c) => c.revertFile(from, file));
    return this.changes(from);
  }

  /** Restores the workspace to checkpoint `id`; answers the changes since the first checkpoint. */
  async restore(id: string): Promise<ChangeSet> {
    const to = await this.#since(id);
    await this.#write((c) => c.restore(to));
    return this.changes();
  }

  /** The bridge lost the session: nothing is written from now on (checked as each write starts). */
  fence(): void {
    this.#fenced = true;
  }

  /** Runs `task` on the checkpoints, tracked, unless the bridge lost the session. */
  #write<T>(task: (checkpoints: Checkpoints) => Promise<T>): Promise<T> {
    return this.#track(this.#unlessFenced(task));
  }

  async #unlessFenced<T>(task: (checkpoints: Checkpoints) => Promise<T>): Promise<T> {
    const checkpoints = await this.#checkpoints;
    if (this.#fenced || !this.#mayWrite())
      throw new BridgeError(BridgeErrorCode.SessionStopped, "The session runs on another node now");
    try {
      return await task(checkpoints);
    } catch (error) {
      if (error instanceof CheckpointError)
        throw new BridgeError(BridgeErrorCode.TooLargeToRestore, error.message, { cause: error });
      throw error;
    }
  }

  /** A known checkpoint's id: `id`, or the first checkpoint's when omitted. */
  async #since(id: string | undefined): Promise<string> {
    if (id !== undefined && !CHECKPOINT_ID.test(id))
      throw new BridgeError(BridgeErrorCode.InvalidRequest, "A checkpoint id is 40 hex digits");
    const list = await this.list();
    const found = id === undefined ? list[0] : list.find((c) => c.id === id);
    if (found === undefined)
      throw new BridgeError(
        BridgeErrorCode.UnknownCheckpoint,
        id === undefined ? "The session has no checkpoint yet" : `No checkpoint ${id}`,
      );
    return found.id;
  }
}

/** A run checkpoint's label: the prompt's first non-empty line, trimmed to {@link MAX_LABEL_CHARS}. */
export function runLabel(prompt: string): string {
  const line = prompt.split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
  const text = line.trim().replace(/\s+/g, " ");
  if (text === "") return "(empty prompt)";
  return text.length <= MAX_LABEL_CHARS ? text : `${text.slice(0, MAX_LABEL_CHARS - 1)}…`;
}

/**
 * `path` as a workspace-relative, `/`-separated path; a `BridgeError` (`invalid_path`) for an
 * absolute one, one with `..`, `.` or empty segments, a backslash or a NUL.
 */
export function confinedPath(path: string): string {
  const bad = (why: string) =>
    new BridgeError(BridgeErrorCode.InvalidPath, `\`path\` ${why}: ${JSON.stringify(path)}`);
  if (path === "" || path.length > 4096) throw bad("must be a relative path of 1-4096 characters");
  if (path.includes("\0") || path.includes("\\")) throw bad("may not hold a NUL or a backslash");
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) throw bad("must be relative");
  for (const segment of path.split("/"))
    if (segment === "" || segment === "." || segment === "..")
      throw bad("must stay inside the workspace (no empty, `.` or `..` segments)");
  return path;
}
