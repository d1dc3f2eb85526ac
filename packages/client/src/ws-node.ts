/**
 * @module
 * The WebSocket transport on Node 20, which has no global `WebSocket`: the same transport with the
 * `ws` package's class, imported on first use (`ws` is an optional peer dependency). Runtimes
 * with a global `WebSocket` (browsers, Deno, Bun, Node 22) use that one instead.
 */
import { REFUSAL_CODE_HEADER } from "@pi-kit/protocol/bridge";
import type { WebSocket as WsSocket } from "ws";
import { refusedHandshakeMessage } from "./transports/websocket/refused-handshake.ts";
import type { WebSocketConstructor } from "./transports/websocket/socket.ts";
import { globalWebSocket } from "./transports/websocket/socket.ts";
import { createWebSocketTransport } from "./transports/websocket/websocket-transport.ts";
import type {
  WebSocketTransport,
  WebSocketTransportOptions,
} from "./transports/websocket/websocket-transport-contract.ts";

/**
 * `ws`'s class, failing a refused handshake with the HTTP status and the bridge's
 * `Pi-Kit-Error-Code` header in its error (`ws` alone names only the status).
 */
function withRefusalCodes(Base: typeof WsSocket): WebSocketConstructor {
  return class RefusalAwareWebSocket extends Base {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols);
      this.on("unexpected-response", (request, response) => {
        const code = response.headers[REFUSAL_CODE_HEADER.toLowerCase()];
        const message = refusedHandshakeMessage(
          response.statusCode ?? 0,
          typeof code === "string" ? code : undefined,
        );
        // ws reports a failed request as the socket's error, then closes it.
        request.destroy(new Error(message));
      });
    }
  };
}

/**
 * The global `WebSocket` when there is one, else `ws`'s class (imported dynamically, so bundles
 * that never call this do not pull `ws` in). Throws a `TypeError` saying to install `ws` when neither exists.
 */
export async function loadWebSocket(): Promise<WebSocketConstructor> {
  const global = globalWebSocket();
  if (global !== undefined) return global;
  try {
    const ws = await import("ws");
    return withRefusalCodes(ws.WebSocket);
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
