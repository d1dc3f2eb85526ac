/** Why {@link CheckpointError} was thrown. */
export type CheckpointErrorCode = "too_large_to_restore";

/**
 * A revert or restore that would need a file's content the checkpoints never kept: an untracked
 * file over the size cap, which is listed as changed (`tooLarge`) but was not snapshotted.
 * Nothing was changed in the workspace.
 */
export class CheckpointError extends Error {
  /** What went wrong. */
  readonly code: CheckpointErrorCode;
  /** The files (relative to the workspace) that cannot be put back. */
  readonly paths: readonly string[];

  constructor(code: CheckpointErrorCode, paths: readonly string[]) {
    super(
      `Too large to restore (never kept in a checkpoint): ${paths.join(", ")}; nothing was changed`,
    );
    this.name = "CheckpointError";
    this.code = code;
    this.paths = paths;
  }
}
