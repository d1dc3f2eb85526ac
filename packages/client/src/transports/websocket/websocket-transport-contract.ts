/**
 * What `createWebSocketTransport` takes and gives: its options and the transport's public
 * contract (the implementation is `websocket-transport.ts`).
 */
import type {
  ControlledTransport,
  ReconnectingTransport,
  SharedTransport,
  StderrTransport,
} from "../transport.ts";
import type { ReconnectOptions } from "./backoff.ts";
import type { ConnectionState } from "./connection-state.ts";
import type { ControlState } from "./control-state.ts";
import type { BridgeToken } from "./protocols.ts";
import type { WebSocketConstructor } from "./socket.ts";

/** Options for `createWebSocketTransport`. */
export interface WebSocketTransportOptions {
  /** The session's WebSocket URL, e.g. `wss://host/sessions/main/ws` (`http(s):` and, in a page, relative URLs work too). */
  readonly url: string | URL;
  /**
   * The bridge token or a per-user ticket, sent as the `pi-kit.token.<token>` subprotocol, never
   * in the URL; or a function returning a fresh one for each connection (tickets are short-lived).
   * A function that throws, or returns a token a WebSocket cannot carry, counts as a connection
   * that failed: it is retried with backoff.
   */
  readonly token?: BridgeToken;
  /** More subprotocols to offer after `pi-kit.v1` and the token. */
  readonly protocols?: readonly string[];
  /** Reconnect timing, or `false` to close for good on the first drop. */
  readonly reconnect?: ReconnectOptions | false;
  /** Closes the transport (as `close()` does) when it aborts. */
  readonly signal?: AbortSignal;
  /** The WebSocket class; defaults to the global one. Node 20 has none: pass `ws`'s, or use `@pi-kit/client/ws-node`. */
  readonly WebSocket?: WebSocketConstructor;
  /** Milliseconds for one socket to open before the attempt counts as failed. Defaults to 10 000. */
  readonly connectTimeoutMs?: number;
  /** Largest inbound record in UTF-8 bytes; a larger one becomes a `record_too_large` frame. Defaults to 64 MiB. */
  readonly maxRecordBytes?: number;
  /** How the other viewers of the session see this connection, e.g. `"Phone"` (sent as the `label` query parameter). */
  readonly label?: string;
  /**
   * This viewer's secret key (16-128 characters of A-Z a-z 0-9 _ -, sent as the `viewer` query
   * parameter): after a bridge restart, control goes back to the viewer that had it. Defaults to a
   * random key for the transport's life; a page that keeps one per tab (`sessionStorage`) keeps
   * control across a reload, too.
   */
  readonly viewerKey?: string;
}

/**
 * A transport to a pi session behind the bridge, over one WebSocket at a time: it reconnects with
 * backoff and jitter, keeps its `readable` open across reconnects, and reports its state.
 */
export interface WebSocketTransport
  extends ReconnectingTransport,
    SharedTransport,
    ControlledTransport,
    StderrTransport {
  /** The URL it connects to. */
  readonly url: string;
  /** Where the connection stands now; a `statechange` event ({@link ConnectionStateEvent}) follows every change. */
  readonly state: ConnectionState;
  /** Reconnects now: skips a pending backoff delay, or drops an open socket and opens a new one. */
  reconnect(): void;
  /**
   * Who controls the bridge session (several connections may watch one; one drives pi), once
   * the bridge has said; `undefined` while no socket is open. A `controlchange` event
   * ({@link ControlChangeEvent}) follows every change; refused dialog answers come as `bridgeerror`.
   */
  readonly control: ControlState | undefined;
  /**
   * Makes this connection the one that drives pi (the previous controller watches from then on).
   * Resolves with the new state; rejects with a {@link TakeControlError}: `read_only` for a
   * connection that may only watch, `closed` when the socket closes first.
   */
  takeControl(): Promise<ControlState>;
}
