/** Options and result shared by the runtime adapters' `serveBridge`. */
import type { Bridge } from "../bridge/create-bridge.ts";
import type { BridgeOptions } from "../options/bridge-options.ts";

/** Options of `serveBridge`: the bridge's, plus where to listen. */
export interface ServeBridgeOptions extends Omit<BridgeOptions, "token"> {
  /** The token; a fresh one (see `generateToken`) when omitted, returned as `token`. */
  readonly token?: string;
  /** The port; 0 picks a free one. Default 8787. */
  readonly port?: number;
  /** The interface to listen on. Default `127.0.0.1`: only this machine can connect. */
  readonly hostname?: string;
}

/** A bridge that is listening. */
export interface ServedBridge {
  /** The bridge (app, sessions). */
  readonly bridge: Bridge;
  /** The base URL, e.g. `http://127.0.0.1:8787`. */
  readonly url: string;
  /** The port listened on. */
  readonly port: number;
  /** The token clients must present. */
  readonly token: string;
  /** Stops every pi gracefully (stdin first), then the server. */
  close(): Promise<void>;
}

/** The default port. */
export const DEFAULT_PORT = 8787;
/** The default interface: loopback only. */
export const DEFAULT_HOSTNAME = "127.0.0.1";

/** `http://host:port`, with IPv6 hosts bracketed. */
export function baseUrl(hostname: string, port: number): string {
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  return `http://${host}:${port}`;
}

/** The answer to a request that arrives in the instant between listening and the bridge's creation. */
export function notYet(): Response {
  return new Response(null, { status: 503, headers: { "retry-after": "1" } });
}
