/**
 * @module
 * The bridge protocol: what `@pi-kit/bridge` and its clients exchange beyond pi's own records
 * (subprotocols, close codes and reasons, error codes, the `bridge_*` records, the history API's
 * bodies). See docs/bridge-protocol.md and `bridge-schema.json`.
 */
export {
  type ChangeSet,
  type CheckpointList,
  type CheckpointSummary,
  CONTROLLER_CONNECTION_HEADER,
  type FileChange,
  type FileChangeStatus,
  type FileDiff,
  type RevertFileBody,
} from "./changes.ts";
export { BridgeCloseCode } from "./close-codes.ts";
export {
  type BridgeCloseReason,
  closeReason,
  MAX_CLOSE_REASON_BYTES,
  parseCloseReason,
  refusalReason,
  tooBigReason,
} from "./close-reason.ts";
export {
  BRIDGE_ERROR_STATUS,
  type BridgeErrorBody,
  BridgeErrorCode,
  type BridgeErrorStatus,
  REFUSAL_CODE_HEADER,
  TicketRefusal,
} from "./error-codes.ts";
export {
  DEFAULT_FILE_PAGE_SIZE,
  type FileSearchPage,
  MAX_FILE_PAGE_SIZE,
  MAX_FILE_QUERY_LENGTH,
  type WorkspaceEntry,
  type WorkspaceEntryKind,
} from "./files.ts";
export type {
  SessionFork,
  SessionPage,
  SessionSummary,
  StoredSessionState,
} from "./history.ts";
export {
  BRIDGE_RECORD_PREFIX,
  type BridgeConnectionRef,
  type BridgeControlRecord,
  type BridgeDialogClosedRecord,
  type BridgeErrorRecord,
  type BridgePingRecord,
  type BridgePiStderrRecord,
  type BridgeRecord,
  type BridgeRefusalCode,
  type BridgeSelfRef,
  type BridgeTakeControlCommand,
  parseBridgeRecord,
} from "./records.ts";
export {
  BRIDGE_RUN_SNAPSHOT,
  type BridgeRunSnapshotRecord,
  isRunSnapshot,
  parseRunSnapshot,
} from "./run-snapshot.ts";
export { PROTOCOL_V1, TOKEN_PROTOCOL_PREFIX } from "./subprotocol.ts";
export {
  DEFAULT_UPLOAD_LIMITS,
  UPLOADS_DIR,
  type UploadLimits,
  type UploadQuota,
  type UploadRequest,
  type UploadStatus,
} from "./uploads.ts";
export { WATCHER_COMMANDS } from "./watcher-commands.ts";
