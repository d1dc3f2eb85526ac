import { parseCloseReason } from "@pi-kit/protocol/bridge";
import type { TransportCloseInfo } from "../transport.ts";

/** The status of a reconnecting connection. */
export type ConnectionStatus = "connecting" | "open" | "reconnecting" | "closed";

/** How the last socket ended: its WebSocket close code and reason. */
export interface SocketClose {
  /** The WebSocket close code (1006 when the connection failed without a close frame). */
  readonly code: number;
  /** The close reason the peer sent, possibly empty. */
  readonly reason: string;
}

/** The first socket is being opened. */
export interface ConnectingState {
  readonly status: "connecting";
}

/** A socket is open; records flow. */
export interface OpenState {
  readonly status: "open";
  /** How many sockets have opened so far: 1 for the first, 2 after the first reconnect, … */
  readonly generation: number;
  /** The subprotocol the server chose (`pi-kit.v1`), or `""` when it chose none. */
  readonly protocol: string;
}

/** The socket dropped (or an attempt failed); the next attempt is scheduled or under way. */
export interface ReconnectingState {
  readonly status: "reconnecting";
  /** The attempt scheduled next, counting from 1 after the last open socket. */
  readonly attempt: number;
  /** The delay before that attempt, in ms (already elapsed once the attempt is under way). */
  readonly delayMs: number;
  /** How the previous socket or attempt ended. */
  readonly lastClose: SocketClose;
}

/** Closed for good: the peer ended the session, pi exited, the caller closed, or reconnecting gave up. */
export interface ClosedState {
  readonly status: "closed";
  /** Why, as the transport's `closed` promise reports it. */
  readonly closeInfo: TransportCloseInfo;
}

/** Where a reconnecting connection stands; switch on `status`. */
export type ConnectionState = ConnectingState | OpenState | ReconnectingState | ClosedState;

/** Dispatched as `statechange` by a WebSocket transport whenever its {@link ConnectionState} changes. */
export class ConnectionStateEvent extends Event {
  /** The new state (also the transport's `state` at dispatch time). */
  readonly state: ConnectionState;

  constructor(state: ConnectionState) {
    super("statechange");
    this.state = state;
  }
}

/**
 * The error in `closeInfo.error` when the peer closed the socket for good or reconnecting gave up.
 * A bridge's refusal (a wrong or missing token, a refused Origin, an expired ticket, too many
 * sessions) carries its typed code in `bridgeCode`.
 */
export class WebSocketCloseError extends Error {
  /** The close code of the last socket (1006 for a connection that failed). */
  readonly code: number;
  /** The close reason of the last socket, as sent (the bridge's is JSON). */
  readonly reason: string;
  /** The bridge's code for why (`wrong_token`, `ticket_expired`, ...), when it sent one. */
  readonly bridgeCode: string | undefined;
  /** The bridge's words for why, when it sent them. */
  readonly detail: string | undefined;

  constructor(message: string, close: SocketClose) {
    super(message);
    this.name = "WebSocketCloseError";
    this.code = close.code;
    this.reason = close.reason;
    const { reason: detail, code } = parseCloseReason(close.reason);
    this.bridgeCode = code;
    this.detail = detail;
  }
}
