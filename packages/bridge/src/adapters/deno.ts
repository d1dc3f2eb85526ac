/**
 * @module
 * The bridge on Deno: `Deno.serve` and `Deno.upgradeWebSocket` behind Hono's WebSocket helper.
 * Deno is described by the small local interfaces below, so no Deno type package is needed.
 *
 * @example
 * ```ts
 * import { serveBridge } from "@pi-kit/bridge/deno";
 * const served = await serveBridge({ pi: { command: "pi", args: ["--mode", "rpc"] }, sessionsDir: "./sessions" });
 * console.log(served.url, served.token);
 * ```
 */
import { defineWebSocketHelper, WSContext } from "hono/ws";
import { type Bridge, createBridge } from "../bridge/create-bridge.ts";
import { canonicalList } from "../headers/header-list.ts";
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

/** The part of Deno's server-side `WebSocket` the bridge uses. */
interface DenoSocket {
  readonly bufferedAmount: number;
  close(code?: number, reason?: string): void;
}

/** The part of Deno's server-side `WebSocket` the upgrade wires up. */
interface DenoServerSocket extends DenoSocket {
  readonly readyState: 0 | 1 | 2 | 3;
  readonly url: string;
  send(data: string | ArrayBuffer | Uint8Array): void;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
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
  upgradeWebSocket(
    request: Request,
    options: { protocol?: string },
  ): { response: Response; socket: DenoServerSocket };
}

/** The `Deno` namespace, or a clear error off Deno. */
function denoNamespace(from: string): DenoNamespace {
  const deno = (globalThis as { Deno?: DenoNamespace }).Deno;
  if (deno === undefined) throw new TypeError(`${from} from @pi-kit/bridge/deno needs Deno`);
  return deno;
}

/**
 * The request as `Deno.upgradeWebSocket` needs it. Deno splits `Sec-WebSocket-Protocol` on `", "`
 * only, so `pi-kit.v1,pi-kit.token.…` (what `ws` sends) would not contain `pi-kit.v1`: its view of
 * the request carries the offered list spelled that way. The request's own headers are immutable.
 */
function withCanonicalProtocols(request: Request): Request {
  const offered = offeredProtocols(request.headers);
  if (offered.length === 0) return request;
  const headers = new Headers(request.headers);
  headers.set("sec-websocket-protocol", canonicalList(offered));
  return Object.create(request, { headers: { value: headers } }) as Request;
}

/**
 * Like `hono/deno`'s `upgradeWebSocket`, but the handshake echoes only the chosen protocol
 * (hono/deno would echo the first offered entry, which may be the token), whatever the list's
 * spacing. Deno throws on a handshake it cannot complete; the bridge turns that into a refusal.
 */
const upgradeWebSocket = defineWebSocketHelper<DenoSocket, { protocol?: string }>(
  (c, events, options) => {
    const { response, socket } = denoNamespace("upgradeWebSocket").upgradeWebSocket(
      withCanonicalProtocols(c.req.raw),
      options?.protocol === undefined ? {} : { protocol: options.protocol },
    );
    const context = new WSContext<DenoSocket>({
      close: (code, reason) => socket.close(code, reason),
      get protocol() {
        return options?.protocol ?? null;
      },
      raw: socket,
      get readyState() {
        return socket.readyState;
      },
      url: socket.url ? new URL(socket.url) : null,
      send: (source) => socket.send(source),
    });
    socket.onopen = (event) => events.onOpen?.(event, context);
    socket.onmessage = (event) => events.onMessage?.(event, context);
    socket.onclose = (event) => events.onClose?.(event, context);
    socket.onerror = (event) => events.onError?.(event, context);
    return response;
  },
);

/**
 * WebSocket support for Deno. Deno has no per-message size option, so the relay enforces
 * `maxRecordBytes` (close 1009), and no way to drop a socket at once, so a stalled one is closed.
 */
export const denoWebSocket: WebSocketRuntime<DenoSocket> = {
  upgrade: (c, events, protocol) =>
    upgradeWebSocket(c, events, protocol === undefined ? {} : { protocol }),
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
  const deno = denoNamespace("serveBridge");
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
