/**
 * @module
 * An Agent Client Protocol agent for Zed, JetBrains, Neovim and other ACP editors, driving pi
 * sessions hosted on a pi-kit bridge (shared with `<pi-chat>` viewers) or a local pi.
 */
export { type AcpAgentOptions, createAcpAgent } from "./agent.ts";
export { type BridgeBackendOptions, bridgeBackend } from "./backend/bridge-backend.ts";
export { type LocalBackendOptions, localBackend } from "./backend/local-backend.ts";
export type {
  OpenedSession,
  SessionBackend,
  StoredSession,
  StoredSessionPage,
} from "./backend/session-backend.ts";
export { connectAcpAgent } from "./connect.ts";
