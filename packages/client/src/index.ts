/**
 * @module
 * A typed client for the pi coding agent's RPC mode: `PiClient`, its session model and extension-UI
 * handling, over pluggable transports.
 */
export {
  ALL_COMMANDS,
  COMMANDS_MISSING_IN_073,
  capabilitiesFor,
  type PiCapabilities,
  type PiVersionLine,
} from "./client/capabilities.ts";
export type { PiClientDiagnostic, PiClientDiagnosticKind } from "./client/diagnostics.ts";
export { PiClientError, PiClientErrorCode, type PiClientErrorOptions } from "./client/errors.ts";
export type { EventIterationOptions, Unsubscribe } from "./client/event-hub.ts";
export type { CallOptions, ResponseRecord } from "./client/pending-requests.ts";
export {
  type BashOptions,
  type ClientEvent,
  type ClientEventOf,
  type ClientUi,
  type ConnectOptions,
  PiClient,
  type PiClientOptions,
  type PromptAndWaitOptions,
  type PromptOptions,
  type QueueOptions,
  type RunResult,
  type RunSettledEvent,
  type SessionChangedEvent,
  type SessionChangeReason,
  type SessionResyncedEvent,
} from "./client/pi-client.ts";
export type { RawCommand } from "./client/raw-command.ts";
export type { RunOutcome, WaitOptions } from "./client/run-tracker.ts";
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
export type {
  SessionHistory,
  SessionListQuery,
  SessionPage,
  SessionSummary,
  StoredSessionState,
} from "./history/session-history.ts";
export { MessageAssembler, type StreamingToolCall } from "./session/message-assembler.ts";
export {
  type BashRun,
  SessionModel,
  type SessionSnapshot,
  type SessionSource,
  type SessionStamp,
  type ToolExecution,
} from "./session/session-model.ts";
export * from "./transports/index.ts";
