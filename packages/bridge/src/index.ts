/**
 * @module
 * A secure WebSocket bridge that owns pi processes and relays their RPC records to browsers.
 * The runtime entry points `@pi-kit/bridge/node`, `/deno` and `/bun` serve it.
 */

// The refusal codes are the bridge protocol's; code that runs a bridge branches on them here.
export { TicketRefusal } from "@pi-kit/protocol/bridge";
export {
  DEFAULT_HOSTNAME,
  DEFAULT_PORT,
  type ServeBridgeOptions,
  type ServedBridge,
} from "./adapters/serve-options.ts";
export { type Bridge, createBridge } from "./bridge/create-bridge.ts";
export type { CheckpointSettings } from "./checkpoints/checkpoint-store.ts";
export type { ClusterOptions } from "./cluster/cluster-settings.ts";
export { BridgeError, BridgeErrorCode, type BridgeErrorStatus } from "./errors/bridge-error.ts";
export {
  BridgeHistory,
  type BridgeHistoryOptions,
  MAX_TITLE_CHARS,
} from "./history/bridge-history.ts";
export { INTERRUPTED_NOTICE } from "./history/start-plan.ts";
export {
  type CreateSessionBody,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type RenameSessionBody,
} from "./http/routes.ts";
export {
  type BridgeLogEvent,
  type BridgeLogEventName,
  type BridgeLogger,
  jsonLogger,
  silentLogger,
} from "./logging/logger.ts";
export { type BridgeLimits, type BridgeOptions, DEFAULT_LIMITS } from "./options/bridge-options.ts";
export {
  type ClusterRefusalCode,
  ClusterRefusalError,
  SessionOwnedElsewhereError,
} from "./placement/owned-elsewhere.ts";
export { type SessionsDirHolder, SessionsDirInUseError } from "./placement/sessions-dir-lock.ts";
export { PRIVATE_AGENT_DIR } from "./sandbox/private-agent-dir.ts";
export type { BwrapSandboxOptions, SandboxOption } from "./sandbox/sandbox.ts";
export type { CommandPolicyOptions } from "./security/command-policy.ts";
export {
  DEFAULT_PAIRING_TTL_MS,
  type PairedCredential,
  type PairingOptions,
  type PairingTicket,
} from "./security/pairing.ts";
export { defaultSessionsDir, prepareSessionsDir } from "./security/sessions-dir.ts";
export {
  DEFAULT_TICKET_AUDIENCE,
  MAX_TICKET_SUBJECT_BYTES,
  type TicketClaims,
  type TicketOptions,
} from "./security/tickets.ts";
export { generateToken } from "./security/token.ts";
export type { Session } from "./sessions/session.ts";
export type { SessionConnection } from "./sessions/session-connection.ts";
export type {
  CloseReason,
  SessionExit,
  SessionInfo,
  SessionState,
} from "./sessions/session-info.ts";
export {
  type HeldSession,
  isSessionName,
  SessionRegistry,
} from "./sessions/session-registry.ts";
export type { PiProcessSpec, StartPlan } from "./sessions/session-settings.ts";
export type { UploadSettings } from "./uploads/session-uploads.ts";
export type { WebSocketRuntime } from "./ws/runtime.ts";
