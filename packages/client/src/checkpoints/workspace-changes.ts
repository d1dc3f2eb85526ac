/**
 * What changed in a session's workspace since a checkpoint, and undoing it: the seam between a
 * changes view and where the checkpoints live (a bridge's changes API, or a fake in tests).
 * @module
 */
import type { ChangeSet, CheckpointSummary, FileDiff } from "@pi-kit/protocol/bridge";

/** Options of one call. */
export interface WorkspaceChangesCallOptions {
  /** Cancels the call. */
  readonly signal?: AbortSignal;
}

/** A session's checkpoints and the changes since them. */
export interface WorkspaceChanges {
  /** The checkpoints, oldest first: the session start, then one at the start of every run. */
  checkpoints(options?: WorkspaceChangesCallOptions): Promise<readonly CheckpointSummary[]>;
  /** The files changed since checkpoint `since` (default: the session start). */
  changes(since?: string, options?: WorkspaceChangesCallOptions): Promise<ChangeSet>;
  /** The unified diff of one file since checkpoint `since` (default: the session start). */
  diff(path: string, since?: string, options?: WorkspaceChangesCallOptions): Promise<FileDiff>;
  /** Puts one file back as it was at `since` (default: the session start); the controller only. */
  revertFile(
    path: string,
    since?: string,
    options?: WorkspaceChangesCallOptions,
  ): Promise<ChangeSet>;
  /** Restores the whole workspace to checkpoint `id`; the controller only. */
  restore(id: string, options?: WorkspaceChangesCallOptions): Promise<ChangeSet>;
}
