/**
 * @module
 * The WebSocket transport on Node 20, which has no global `WebSocket`: the same transport with the
 * `ws` package's class, imported on first use (`ws` is an optional peer dependency). Runtimes
 * with a global `WebSocket` (browsers, Deno, Bun, Node 22) use that one instead.
 */
import type { WebSocketConstructor } from "./transports/websocket/socket.ts";
import { globalWebSocket } from "./transports/websocket/socket.ts";
import { createWebSocketTransport } from "./transports/websocket/websocket-transport.ts";
import type {
  WebSocketTransport,
  WebSocketTransportOptions,
} from "./transports/websocket/websocket-transport-contract.ts";

/**
 * The global `WebSocket` when there is one, else `ws`'s class (imported dynamically, so bundles
 * that never call this do not pull `ws` in). Throws a `TypeError` saying to install `ws` when neither exists.
 */
export async function loadWebSocket(): Promise<WebSocketConstructor> {
  const global = globalWebSocket();
  if (global !== undefined) return global;
  try {
    const ws = await import("ws");
    const Socket: WebSocketConstructor = ws.WebSocket;
    return Socket;
  } catch (error) {
    throw new TypeError("Node 20 has no global WebSocket: install the `ws` package (npm i ws)", {
      cause: error,
    });
  }
}

/**
 * {@link createWebSocketTransport} with the WebSocket class from {@link loadWebSocket} unless
 * `options.WebSocket` is given.
 * @example
 * ```ts
 * import { PiClient } from "@pi-kit/client";
 * import { createNodeWebSocketTransport } from "@pi-kit/client/ws-node";
 * const transport = await createNodeWebSocketTransport({ url: "ws://127.0.0.1:8787/sessions/main/ws", token });
 * const client = await PiClient.connect(transport);
 * ```
 */
export async function createNodeWebSocketTransport(
  options: WebSocketTransportOptions,
): Promise<WebSocketTransport> {
  const WebSocket = options.WebSocket ?? (await loadWebSocket());
  return createWebSocketTransport({ ...options, WebSocket });
}

export type { WebSocketConstructor } from "./transports/websocket/socket.ts";
export type {
  WebSocketTransport,
  WebSocketTransportOptions,
} from "./transports/websocket/websocket-transport-contract.ts";
