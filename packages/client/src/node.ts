/**
 * @module
 * Spawns pi as a child process on Node. Prefer `@pi-kit/client/process`, which picks the runtime.
 */

export { CheckpointError, type CheckpointErrorCode } from "./checkpoints/checkpoint-error.ts";
export {
  type Checkpoint,
  Checkpoints,
  type CheckpointsOptions,
  type FileChange,
  type FileChangeStatus,
} from "./checkpoints/checkpoints.ts";
export {
  WorkspaceFileIndex,
  type WorkspaceFileIndexOptions,
} from "./files/node/workspace-file-index.ts";
export { spawnNode } from "./transports/child-process/node.ts";
export type * from "./transports/child-process/public-types.ts";
