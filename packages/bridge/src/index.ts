/**
 * @module
 * A secure WebSocket bridge that owns pi processes and relays their RPC records to browsers.
 * The runtime entry points `@pi-kit/bridge/node`, `/deno` and `/bun` serve it.
 */
export {
  type Bridge,
  type BridgeLimits,
  type BridgeOptions,
  createBridge,
  DEFAULT_LIMITS,
} from "./bridge.ts";
export {
  BridgeCloseCode,
  closeReason,
  MAX_CLOSE_REASON_BYTES,
} from "./close-codes.ts";
export { BridgeError, BridgeErrorCode, type BridgeErrorStatus } from "./errors.ts";
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
} from "./logger.ts";
export { PRIVATE_AGENT_DIR } from "./sandbox/private-agent-dir.ts";
export type { BwrapSandboxOptions, SandboxOption } from "./sandbox/sandbox.ts";
export {
  type CommandPolicy,
  type CommandPolicyOptions,
  createCommandPolicy,
  DENIED_PREFIX,
  type PolicyDecision,
} from "./security/command-policy.ts";
export { createOriginCheck, type OriginCheck } from "./security/origin.ts";
export { TokenBucket } from "./security/rate-limit.ts";
export { defaultSessionsDir, prepareSessionsDir } from "./security/sessions-dir.ts";
export {
  DEFAULT_TICKET_AUDIENCE,
  MAX_TICKET_SUBJECT_BYTES,
  type TicketClaims,
  type TicketOptions,
  TicketRefusal,
} from "./security/tickets.ts";
export {
  generateToken,
  SUBPROTOCOL,
  TOKEN_PROTOCOL_PREFIX,
  tokensEqual,
} from "./security/token.ts";
export {
  DEFAULT_HOSTNAME,
  DEFAULT_PORT,
  type ServeBridgeOptions,
  type ServedBridge,
} from "./serve-options.ts";
export {
  BridgeHistory,
  type BridgeHistoryOptions,
  MAX_TITLE_CHARS,
} from "./sessions/bridge-history.ts";
export { USERS_DIR, userOwner } from "./sessions/owner.ts";
export type {
  CloseReason,
  PiProcessSpec,
  Session,
  SessionConnection,
  SessionExit,
  SessionInfo,
  SessionState,
  StartPlan,
} from "./sessions/session.ts";
export {
  type HeldSession,
  isSessionKey,
  isSessionName,
  SessionRegistry,
} from "./sessions/session-registry.ts";
export { INTERRUPTED_NOTICE } from "./sessions/store/start-plan.ts";
export type { WebSocketRuntime } from "./ws/runtime.ts";
