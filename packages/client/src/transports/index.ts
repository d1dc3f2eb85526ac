/**
 * @module
 * The transports that run anywhere (web standards only): the interface, streams, WebSocket, replay
 * and recording.
 * Child processes are in the runtime entry points: `@pi-kit/client/process` (automatic),
 * `/node`, `/deno` and `/bun`.
 */
export type {
  ChildProcessOptions,
  ChildProcessTransport,
  ExitStatus,
  StopSignal,
  StopTimeouts,
} from "./child-process/options.ts";
export { type RecordOptions, recordTransport } from "./recording-transport.ts";
export {
  createReplayTransport,
  type ReplayOptions,
  type ReplayTransport,
} from "./replay-transport.ts";
export { createStreamTransport, type StreamTransportOptions } from "./stream-transport.ts";
export {
  isReconnectingTransport,
  isSharedTransport,
  type ReconnectInfo,
  type ReconnectingTransport,
  type SharedTransport,
  type Transport,
  type TransportCloseInfo,
  type TransportFrame,
  type TransportFrames,
} from "./transport.ts";
export {
  type Backoff,
  backoffDelay,
  DEFAULT_BACKOFF,
  type ReconnectOptions,
  resolveBackoff,
} from "./websocket/backoff.ts";
export {
  BRIDGE_RECORD_PREFIX,
  type BridgeConnectionRef,
  type BridgeControlRecord,
  type BridgeDialogClosedRecord,
  type BridgeErrorRecord,
  type BridgeRecord,
  type BridgeRefusalCode,
  type BridgeSelfRef,
  type BridgeTakeControlCommand,
  parseBridgeRecord,
  WATCHER_COMMANDS,
} from "./websocket/bridge-control.ts";
export { BridgeCloseCode, finalCloseInfo } from "./websocket/close-codes.ts";
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
export { type BridgeToken, PROTOCOL_V1, TOKEN_PROTOCOL_PREFIX } from "./websocket/protocols.ts";
export type {
  WebSocketConstructor,
  WebSocketEventLike,
  WebSocketLike,
} from "./websocket/socket.ts";
export {
  createWebSocketTransport,
  type WebSocketTransport,
  type WebSocketTransportOptions,
} from "./websocket/websocket-transport.ts";
