/**
 * @module
 * A typed client for the pi coding agent's RPC mode: `PiClient`, its session model and extension-UI
 * handling, over pluggable transports.
 */

// The history and changes APIs' bodies are the bridge protocol's; their users name them from here.
export type {
  ChangeSet,
  CheckpointSummary,
  FileChange,
  FileChangeStatus,
  FileDiff,
  FileSearchPage,
  SessionFork,
  SessionPage,
  SessionSummary,
  StoredSessionState,
  UploadLimits,
  UploadQuota,
  UploadRequest,
  UploadStatus,
  WorkspaceEntry,
  WorkspaceEntryKind,
} from "@pi-kit/protocol/bridge";
export { DEFAULT_UPLOAD_LIMITS, UPLOADS_DIR } from "@pi-kit/protocol/bridge";
export {
  BridgeWorkspaceChanges,
  type BridgeWorkspaceChangesOptions,
} from "./checkpoints/bridge-workspace-changes.ts";
export type {
  WorkspaceChanges,
  WorkspaceChangesCallOptions,
} from "./checkpoints/workspace-changes.ts";
export type { PiCapabilities, PiVersionLine } from "./client/capabilities.ts";
export type {
  ClientEvent,
  ClientEventOf,
  PiStderrEvent,
  RunSettledEvent,
  SessionChangedEvent,
  SessionChangeReason,
  SessionResyncedEvent,
} from "./client/client-events.ts";
export type {
  BashOptions,
  ClientUi,
  ConnectOptions,
  PiClientOptions,
  PromptAndWaitOptions,
  PromptOptions,
  QueueOptions,
  RunResult,
} from "./client/client-options.ts";
export { PiClientError, PiClientErrorCode, type PiClientErrorOptions } from "./client/errors.ts";
export type { EventIterationOptions, Unsubscribe } from "./client/event-hub.ts";
export type { CallOptions, ResponseRecord } from "./client/pending-requests.ts";
export { PiClient } from "./client/pi-client.ts";
export type { RawCommand } from "./client/raw-command.ts";
export type { RunOutcome, WaitOptions } from "./client/run-tracker.ts";
export type {
  PiClientDiagnostic,
  PiClientDiagnosticKind,
} from "./diagnostics/pi-client-diagnostic.ts";
export type {
  DialogCloseReason,
  DialogContext,
  DialogHandler,
  DialogHandling,
  DialogReply,
  PendingDialog,
} from "./extension-ui/dialog-manager.ts";
export {
  EMPTY_UI_STATE,
  type ExtensionUiState,
  type ExtensionWidget,
  type WidgetPlacement,
} from "./extension-ui/ui-state.ts";
export {
  BridgeFileSearch,
  type BridgeFileSearchOptions,
} from "./files/bridge-file-search.ts";
export type { FileSearch, FileSearchQuery } from "./files/file-search.ts";
export {
  BridgeSessionHistory,
  type BridgeSessionHistoryOptions,
  type HistoryCallOptions,
} from "./history/bridge-session-history.ts";
export {
  SessionHistoryError,
  SessionHistoryErrorCode,
  type SessionHistoryErrorOptions,
} from "./history/history-error.ts";
export type { SessionHistory, SessionListQuery } from "./history/session-history.ts";
export {
  isPermissionMode,
  PERMISSION_MODES,
  PERMISSION_STATUS_KEY,
  type PermissionMode,
  permissionModeCommand,
} from "./permissions/permission-mode.ts";
export { SessionModel, type SessionSource } from "./session/session-model.ts";
export type {
  BashRun,
  SessionSnapshot,
  SessionStamp,
  ToolExecution,
} from "./session/session-snapshot.ts";
export * from "./transports/index.ts";
export { BridgeUploads, type BridgeUploadsOptions } from "./uploads/bridge-uploads.ts";
export type { UploadOptions, UploadSource, Uploads } from "./uploads/uploads.ts";
