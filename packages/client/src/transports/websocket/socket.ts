/**
 * The few parts of a WebSocket the transport uses, as a local interface: the global `WebSocket` of
 * browsers, Deno, Bun and Node 22, and the `ws` package's class on Node 20 all fit it.
 */

/** The fields of the `open`, `message`, `close` and `error` events the transport reads. */
export interface WebSocketEventLike {
  /** The event type. */
  readonly type: string;
  /** `message`: a string for text frames, an `ArrayBuffer` or view for binary ones. */
  readonly data?: unknown;
  /** `close`: the close code. */
  readonly code?: number;
  /** `close`: the close reason. */
  readonly reason?: string;
  /** `error`: a description, where the implementation gives one (`ws` names the HTTP status). */
  readonly message?: string;
}

/** A WebSocket as the transport drives it. */
export interface WebSocketLike {
  /** 0 connecting, 1 open, 2 closing, 3 closed. */
  readonly readyState: number;
  /** The subprotocol the server selected. */
  readonly protocol: string;
  /** Set to `"arraybuffer"` so a binary frame never arrives as a `Blob`. */
  binaryType: string;
  /** Sends one text frame. */
  send(data: string): void;
  /** Starts the closing handshake. */
  close(code?: number, reason?: string): void;
  /** Subscribes to a socket event. */
  addEventListener(
    type: "open" | "message" | "close" | "error",
    listener: (event: WebSocketEventLike) => void,
  ): void;
}

/** A WebSocket constructor: `globalThis.WebSocket`, or `WebSocket` from the `ws` package on Node 20. */
export type WebSocketConstructor = new (
  url: string,
  protocols?: string | string[],
) => WebSocketLike;

/** The `readyState` of an open socket (the constant is not on every implementation's instances). */
export const OPEN = 1;

/** The global `WebSocket`, when the runtime has one (not Node 20). */
export function globalWebSocket(): WebSocketConstructor | undefined {
  const candidate = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  return typeof candidate === "function" ? candidate : undefined;
}

const decoder = new TextDecoder();

/** A message's text: text frames as they are, binary frames decoded as UTF-8; `undefined` for anything else. */
export function messageText(data: unknown): string | undefined {
  if (typeof data === "string") return data;
  if (data instanceof ArrayBuffer) return decoder.decode(data);
  if (ArrayBuffer.isView(data)) return decoder.decode(data);
  return undefined;
}
