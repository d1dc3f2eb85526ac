/**
 * What the bridge core needs from a runtime's WebSocket support. Each adapter
 * (`@pi-kit/bridge/node`, `/deno`, `/bun`) provides one around Hono's upgrade helper for it.
 */
import type { Context } from "hono";
import type { WSEvents } from "hono/ws";

/** A runtime's WebSocket support, as the bridge uses it. `Raw` is the native socket type. */
export interface WebSocketRuntime<Raw = unknown> {
  /**
   * Upgrades the request to a WebSocket with these handlers. The handshake must echo
   * `protocol` when given (and no other entry: the token travels in the offered list).
   */
  upgrade(c: Context, events: WSEvents<Raw>, protocol: string | undefined): Promise<Response>;
  /** Bytes queued on the socket and not yet sent: the backpressure signal. */
  bufferedAmount(raw: Raw): number;
  /** Drops the connection at once: a stalled peer never completes a closing handshake. */
  terminate(raw: Raw): void;
}
