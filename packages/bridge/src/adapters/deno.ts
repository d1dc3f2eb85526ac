/**
 * @module
 * The bridge on Deno: `Deno.serve` and Hono's Deno WebSocket upgrade (`hono/deno`).
 * Deno is described by the small local interfaces below, so no Deno type package is needed.
 *
 * @example
 * ```ts
 * import { serveBridge } from "@pi-kit/bridge/deno";
 * const served = await serveBridge({ pi: { command: "pi", args: ["--mode", "rpc"] }, sessionsDir: "./sessions" });
 * console.log(served.url, served.token);
 * ```
 */
import { upgradeWebSocket } from "hono/deno";
import { type Bridge, createBridge } from "../bridge.ts";
import { generateToken } from "../security/token.ts";
import {
  baseUrl,
  DEFAULT_HOSTNAME,
  DEFAULT_PORT,
  notYet,
  type ServeBridgeOptions,
  type ServedBridge,
} from "../serve-options.ts";
import type { WebSocketRuntime } from "../ws/runtime.ts";

/** The part of Deno's server-side `WebSocket` the bridge uses. */
interface DenoSocket {
  readonly bufferedAmount: number;
  close(code?: number, reason?: string): void;
}

/** The part of `Deno.serve`'s result used here. */
interface DenoServer {
  readonly addr: { readonly port: number };
  shutdown(): Promise<void>;
}

/** The part of the `Deno` namespace used here. */
interface DenoNamespace {
  serve(
    options: { port: number; hostname: string; onListen?: (addr: unknown) => void },
    handler: (request: Request) => Response | Promise<Response>,
  ): DenoServer;
}

/**
 * WebSocket support for Deno. Deno has no per-message size option, so the relay enforces
 * `maxRecordBytes` (close 1009), and no way to drop a socket at once, so a stalled one is closed.
 */
export const denoWebSocket: WebSocketRuntime<DenoSocket> = {
  upgrade: (c, events, protocol) =>
    upgradeWebSocket(
      c,
      events as Parameters<typeof upgradeWebSocket>[1],
      // Without it, hono/deno would echo the first offered entry, which may be the token.
      protocol === undefined ? {} : { protocol },
    ),
  bufferedAmount: (ws) => ws.bufferedAmount,
  terminate: (ws) => {
    try {
      ws.close();
    } catch {
      // Already closed.
    }
  },
};

/** Serves a bridge with `Deno.serve`; resolves once listening. */
export async function serveBridge(options: ServeBridgeOptions): Promise<ServedBridge> {
  const deno = (globalThis as { Deno?: DenoNamespace }).Deno;
  if (deno === undefined) throw new TypeError("serveBridge from @pi-kit/bridge/deno needs Deno");
  const token = options.token ?? generateToken();
  const hostname = options.hostname ?? DEFAULT_HOSTNAME;
  // Listen first: the bridge records its URL in the sessions directory's lock.
  let bridge: Bridge | undefined;
  const server = deno.serve(
    { port: options.port ?? DEFAULT_PORT, hostname, onListen: () => {} },
    (request) => bridge?.app.fetch(request) ?? notYet(),
  );
  const url = baseUrl(hostname, server.addr.port);
  try {
    bridge = createBridge({ url, ...options, token }, denoWebSocket as WebSocketRuntime);
  } catch (error) {
    await server.shutdown();
    throw error;
  }
  const served = bridge;
  return {
    bridge: served,
    url,
    port: server.addr.port,
    token,
    async close() {
      await served.close();
      await server.shutdown();
    },
  };
}
