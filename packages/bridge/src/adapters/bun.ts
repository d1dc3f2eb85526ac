/**
 * @module
 * The bridge on Bun: `Bun.serve` with Hono's Bun WebSocket handlers (`hono/bun`), and an upgrade
 * that echoes only `pi-kit.v1`. Bun is described by small local interfaces, no type package.
 *
 * @example
 * ```ts
 * import { serveBridge } from "@pi-kit/bridge/bun";
 * const served = await serveBridge({ pi: { command: "pi", args: ["--mode", "rpc"] }, sessionsDir: "./sessions" });
 * console.log(served.url, served.token);
 * ```
 */
import { websocket } from "hono/bun";
import { defineWebSocketHelper } from "hono/ws";
import { type Bridge, createBridge } from "../bridge/create-bridge.ts";
import { DEFAULT_LIMITS } from "../options/bridge-options.ts";
import { generateToken } from "../security/token.ts";
import type { WebSocketRuntime } from "../ws/runtime.ts";
import {
  baseUrl,
  DEFAULT_HOSTNAME,
  DEFAULT_PORT,
  notYet,
  type ServeBridgeOptions,
  type ServedBridge,
} from "./serve-options.ts";

/** The part of Bun's `ServerWebSocket` the bridge uses. */
interface BunSocket {
  getBufferedAmount(): number;
  terminate?(): void;
  close(code?: number, reason?: string): void;
}

/** The part of Bun's `Server` used here. */
interface BunServer {
  readonly port: number;
  upgrade(request: Request, options: { headers?: Record<string, string>; data: unknown }): boolean;
  stop(closeActiveConnections?: boolean): Promise<void> | void;
}

/** The part of the `Bun` global used here. */
interface BunNamespace {
  serve(options: {
    port: number;
    hostname: string;
    fetch: (request: Request, server: BunServer) => Response | Promise<Response>;
    websocket: typeof websocket & { maxPayloadLength: number };
  }): BunServer;
}

/**
 * Like `hono/bun`'s `upgradeWebSocket`, but the handshake echoes the chosen protocol: Bun would
 * otherwise echo the first offered entry, which may be the token.
 */
const upgradeWebSocket = defineWebSocketHelper<BunSocket, { protocol?: string }>(
  (c, events, options) => {
    const env = c.env as BunServer | { server: BunServer };
    const server = "server" in env ? env.server : env;
    const protocol = options?.protocol;
    const upgraded = server.upgrade(c.req.raw, {
      ...(protocol === undefined ? {} : { headers: { "Sec-WebSocket-Protocol": protocol } }),
      // The shape hono/bun's `websocket` handlers read.
      data: { events, url: new URL(c.req.url), protocol: protocol ?? "" },
    });
    // Thrown, so the bridge answers it as every runtime's failed handshake: a typed refusal.
    if (!upgraded) throw new TypeError("Bun could not upgrade the request to a WebSocket");
    return new Response(null);
  },
);

/**
 * How far past `maxRecordBytes` Bun itself still reads a message. Bun closes a longer one with
 * 1009 and its own reason (`Received too big message`), so the relay enforces `maxRecordBytes`
 * with the documented JSON reason, and Bun's cap only bounds what a connection can make it buffer.
 */
export const BUN_PAYLOAD_FACTOR = 4;

/**
 * WebSocket support for Bun. Serve with {@link bunWebSocketHandler} as `Bun.serve`'s `websocket`:
 * the relay closes a message over `maxRecordBytes` with 1009 and `{"reason":"too_big",…}`.
 */
export const bunWebSocket: WebSocketRuntime<BunSocket> = {
  upgrade: (c, events, protocol) =>
    upgradeWebSocket(c, events, protocol === undefined ? {} : { protocol }),
  bufferedAmount: (ws) => ws.getBufferedAmount(),
  terminate: (ws) => {
    if (ws.terminate !== undefined) ws.terminate();
    else ws.close();
  },
};

/**
 * `Bun.serve`'s `websocket` option for a bridge: Hono's handlers, and Bun's own message cap at
 * {@link BUN_PAYLOAD_FACTOR} times `maxRecordBytes`.
 */
export function bunWebSocketHandler(
  maxRecordBytes: number = DEFAULT_LIMITS.maxRecordBytes,
): typeof websocket & { maxPayloadLength: number } {
  return { ...websocket, maxPayloadLength: maxRecordBytes * BUN_PAYLOAD_FACTOR };
}

/** Serves a bridge with `Bun.serve`; resolves once listening. */
export async function serveBridge(options: ServeBridgeOptions): Promise<ServedBridge> {
  const bun = (globalThis as { Bun?: BunNamespace }).Bun;
  if (bun === undefined) throw new TypeError("serveBridge from @pi-kit/bridge/bun needs Bun");
  const token = options.token ?? generateToken();
  const hostname = options.hostname ?? DEFAULT_HOSTNAME;
  // Listen first: the bridge records its URL in the sessions directory's lock.
  let bridge: Bridge | undefined;
  const server = bun.serve({
    port: options.port ?? DEFAULT_PORT,
    hostname,
    fetch: (request, srv) => bridge?.app.fetch(request, srv) ?? notYet(),
    websocket: bunWebSocketHandler(options.limits?.maxRecordBytes),
  });
  const url = baseUrl(hostname, server.port);
  try {
    bridge = createBridge({ url, ...options, token }, bunWebSocket as WebSocketRuntime);
  } catch (error) {
    await server.stop(true);
    throw error;
  }
  const served = bridge;
  return {
    bridge: served,
    url,
    port: server.port,
    token,
    async close() {
      await served.close();
      await server.stop(true);
    },
  };
}
