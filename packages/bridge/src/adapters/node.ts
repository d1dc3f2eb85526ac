/**
 * @module
 * The bridge on Node: `@hono/node-server` 2 and its built-in WebSocket upgrade over `ws`.
 *
 * @example
 * ```ts
 * import { serveBridge } from "@pi-kit/bridge/node";
 * const served = await serveBridge({ pi: { command: "pi", args: ["--mode", "rpc"] }, sessionsDir: "./sessions" });
 * console.log(served.url, served.token);
 * ```
 */
import type { AddressInfo } from "node:net";
import { serve, upgradeWebSocket, type WebSocketServerLike } from "@hono/node-server";
import { BridgeCloseCode, PROTOCOL_V1, tooBigReason } from "@pi-kit/protocol/bridge";
import * as wsModule from "ws";
import { type Bridge, createBridge } from "../bridge/create-bridge.ts";
import { canonicalList } from "../headers/header-list.ts";
import { DEFAULT_LIMITS } from "../options/bridge-options.ts";
import { generateToken, offeredProtocols } from "../security/token.ts";
import type { WebSocketRuntime } from "../ws/runtime.ts";
import {
  baseUrl,
  DEFAULT_HOSTNAME,
  DEFAULT_PORT,
  notYet,
  type ServeBridgeOptions,
  type ServedBridge,
} from "./serve-options.ts";

/** The part of a `ws` socket the bridge uses. */
interface NodeSocket {
  readonly bufferedAmount: number;
  terminate(): void;
  close(code?: number, reason?: string): void;
}

/** The options of `ws`'s `WebSocketServer` used here. */
interface WsServerOptions {
  noServer: true;
  maxPayload: number;
  perMessageDeflate: boolean;
  handleProtocols: (protocols: Set<string>) => string | false;
}

/** `ws`'s server class, described locally: only the fields `@hono/node-server` needs. */
const WebSocketServer = (
  wsModule as unknown as { WebSocketServer: new (options: WsServerOptions) => WebSocketServerLike }
).WebSocketServer;

/** A `ws` server for `serve({ websocket: { server } })`, and the bridge's view of it. */
export interface NodeWebSocket {
  /** Pass to `createBridge`. */
  readonly runtime: WebSocketRuntime<NodeSocket>;
  /** Pass to `@hono/node-server`'s `serve({ fetch, websocket: { server } })`. */
  readonly server: WebSocketServerLike;
}

/**
 * WebSocket support for Node. `ws` enforces `maxRecordBytes` itself (close 1009), and the
 * handshake echoes only `pi-kit.v1`, never the token entry.
 */
export function nodeWebSocket(options: { readonly maxRecordBytes?: number } = {}): NodeWebSocket {
  const maxRecordBytes = options.maxRecordBytes ?? DEFAULT_LIMITS.maxRecordBytes;
  const server = new WebSocketServer({
    noServer: true,
    maxPayload: maxRecordBytes,
    // Compression would hide the real queue size from bufferedAmount and costs CPU per event.
    perMessageDeflate: false,
    handleProtocols: (protocols) => (protocols.has(PROTOCOL_V1) ? PROTOCOL_V1 : false),
  });
  server.on("connection", (socket) =>
    explainTooBig(socket as unknown as NodeSocket, maxRecordBytes),
  );
  return {
    server,
    runtime: {
      // The protocol is chosen by handleProtocols above.
      upgrade: (c, events) => {
        canonicalProtocols(c.env as NodeEnv | undefined, c.req.raw.headers);
        return upgradeWebSocket(c, events as unknown as Parameters<typeof upgradeWebSocket>[1]);
      },
      bufferedAmount: (ws) => ws.bufferedAmount,
      terminate: (ws) => ws.terminate(),
    },
  };
}

/** The part of `@hono/node-server`'s environment the upgrade reads: Node's request. */
interface NodeEnv {
  readonly incoming?: { headers: Record<string, string | string[] | undefined> };
}

/**
 * `ws` completes the handshake from Node's request after the route returns, and answers a bare
 * 400 to a list HTTP allows but its parser does not (an empty element, `a, ,b`, or a repeated
 * entry): hand it the offered list the bridge already read, in one spelling.
 */
function canonicalProtocols(env: NodeEnv | undefined, headers: Headers): void {
  const offered = offeredProtocols(headers);
  if (env?.incoming !== undefined && offered.length > 0)
    env.incoming.headers["sec-websocket-protocol"] = canonicalList(offered);
}

/**
 * `ws` refuses a message over `maxPayload` as soon as its header arrives, before buffering it,
 * by calling the socket's `close(1009)` without a reason. Give that call the reason the other
 * runtimes send, `{"reason":"too_big","max":…}`, so clients see the same everywhere.
 */
function explainTooBig(socket: NodeSocket, max: number): void {
  const close = socket.close.bind(socket);
  socket.close = (code, reason) =>
    close(
      code,
      code === BridgeCloseCode.MessageTooBig && reason === undefined ? tooBigReason(max) : reason,
    );
}

/** Serves a bridge on Node; resolves once listening. */
export async function serveBridge(options: ServeBridgeOptions): Promise<ServedBridge> {
  const token = options.token ?? generateToken();
  const maxRecordBytes = options.limits?.maxRecordBytes ?? DEFAULT_LIMITS.maxRecordBytes;
  const sockets = nodeWebSocket({ maxRecordBytes });
  const hostname = options.hostname ?? DEFAULT_HOSTNAME;
  // Listen first: the bridge records its URL in the sessions directory's lock.
  let bridge: Bridge | undefined;
  let server: ReturnType<typeof serve> | undefined;
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    server = serve(
      {
        fetch: (request, env) => bridge?.app.fetch(request, env) ?? notYet(),
        port: options.port ?? DEFAULT_PORT,
        hostname,
        websocket: { server: sockets.server },
      },
      (info) => resolve(info),
    );
    server.once("error", reject);
  });
  const closeServer = (): Promise<void> =>
    new Promise<void>((done) => {
      if (server === undefined) return done();
      server.close(() => done());
      // Sockets of clients that never close would hold close() forever.
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
  const url = baseUrl(hostname, address.port);
  try {
    bridge = createBridge({ url, ...options, token }, sockets.runtime as WebSocketRuntime);
  } catch (error) {
    await closeServer();
    throw error;
  }
  const served = bridge;
  return {
    bridge: served,
    url,
    port: address.port,
    token,
    async close() {
      await served.close();
      await closeServer();
    },
  };
}
