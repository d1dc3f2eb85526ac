/**
 * @module
 * The transports that run anywhere (web standards only): the interface, streams, WebSocket, replay
 * and recording.
 * Child processes are in the runtime entry points: `@pi-kit/client/process` (automatic),
 * `/node`, `/deno` and `/bun`.
 */

// The close codes a WebSocketCloseError's `code` is compared with are the bridge protocol's.
export { BridgeCloseCode } from "@pi-kit/protocol/bridge";
export type * from "./child-process/public-types.ts";
export { type RecordOptions, recordTransport } from "./recording-transport.ts";
export {
  createReplayTransport,
  type ReplayOptions,
  type ReplayTransport,
} from "./replay-transport.ts";
export { createStreamTransport, type StreamTransportOptions } from "./stream-transport.ts";
export {
  type ControlledTransport,
  isControlledTransport,
  isReconnectingTransport,
  isSharedTransport,
  isStderrTransport,
  type ReconnectInfo,
  type ReconnectingTransport,
  type SharedTransport,
  type StderrTransport,
  type Transport,
  type TransportCloseInfo,
  type TransportFrame,
  type TransportFrames,
} from "./transport.ts";
export type { ReconnectOptions } from "./websocket/backoff.ts";
export {
  type ClosedState,
  type ConnectingState,
  type ConnectionState,
  ConnectionStateEvent,
  type ConnectionStatus,
  type OpenState,
  type ReconnectingState,
  type SocketClose,
  WebSocketCloseError,
} from "./websocket/connection-state.ts";
export {
  BridgeRefusalEvent,
  ControlChangeEvent,
  type ControlState,
  TakeControlError,
} from "./websocket/control-state.ts";
export type { BridgeToken } from "./websocket/protocols.ts";
export type {
  WebSocketConstructor,
  WebSocketEventLike,
  WebSocketLike,
} from "./websocket/socket.ts";
export { createWebSocketTransport } from "./websocket/websocket-transport.ts";
export type {
  WebSocketTransport,
  WebSocketTransportOptions,
} from "./websocket/websocket-transport-contract.ts";
