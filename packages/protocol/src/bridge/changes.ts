/**
 * The changes API's bodies: what pi changed in a session's workspace since a checkpoint, and the
 * checkpoints themselves (the session start, then one at the start of every run).
 * @module
 */

/**
 * The request header of a revert or restore that names the caller's socket on the session
 * (`bridge_control`'s `you.id`): the bridge lets only the controlling socket of the same caller undo.
 */
export const CONTROLLER_CONNECTION_HEADER = "X-Pi-Kit-Connection";

/** Request body of `POST /api/sessions/{name}/changes/revert`. */
export interface RevertFileBody {
  /** The file to put back (relative to the workspace, `/`-separated). */
  readonly path: string;
  /** The checkpoint to put it back to; default: the session start. */
  readonly since?: string;
}

/** One checkpoint: a snapshot of the session's workspace. */
export interface CheckpointSummary {
  /** The snapshot's id (a commit id of the bridge's shadow repository). */
  readonly id: string;
  /** What it marks: `session start`, or the first line of the prompt that started the run. */
  readonly label: string;
  /** When it was taken (epoch milliseconds). */
  readonly createdAt: number;
}

/** The checkpoints of a session, oldest first (the first is the session start). */
export interface CheckpointList {
  readonly checkpoints: readonly CheckpointSummary[];
}

/** How a file changed since a checkpoint. */
export type FileChangeStatus = "added" | "modified" | "deleted" | "renamed";

/** One file changed since a checkpoint. */
export interface FileChange {
  /** The path now (relative to the workspace, `/`-separated); for a deleted file, where it was. */
  readonly path: string;
  /** Where a renamed file was. */
  readonly oldPath?: string;
  /** Added, modified, deleted or renamed. */
  readonly status: FileChangeStatus;
  /** Lines added (0 for a binary file). */
  readonly additions: number;
  /** Lines removed (0 for a binary file). */
  readonly deletions: number;
  /** Whether the file is binary (no line counts, no text diff). */
  readonly binary: boolean;
  /**
   * Set for an untracked file over the bridge's size cap: it is not snapshotted, so it has no
   * line counts or diff, and only an added one can be reverted (removed); reverting or restoring
   * another answers 409 `too_large_to_restore`.
   */
  readonly tooLarge?: boolean;
  /** The size in bytes of a `tooLarge` file (for a deleted one, the size it had). */
  readonly size?: number;
}

/** The files changed since checkpoint `since`, sorted by path. */
export interface ChangeSet {
  /** The checkpoint compared against. */
  readonly since: string;
  /** The changed files. */
  readonly changes: readonly FileChange[];
  /** Untracked files over the size cap now (not snapshotted; listed in `changes` too), by path. */
  readonly skipped: readonly string[];
}

/** The unified diff of one changed file since a checkpoint (`""` when it did not change). */
export interface FileDiff {
  /** The file's path now. */
  readonly path: string;
  /** The checkpoint compared against. */
  readonly since: string;
  /** A unified diff, as `git diff` writes it; empty for a binary or unchanged file. */
  readonly diff: string;
}
