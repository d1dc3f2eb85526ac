/**
 * A WebSocket handshake the server answered with an HTTP error status instead of `101`, as the
 * socket's error event words it: `ws` (Node 20) `Unexpected server response: 503`, Deno `Invalid
 * status code: 503`, Bun `Expected 101 status code: 503`; `@pi-kit/client/ws-node` adds the bridge's
 * `Pi-Kit-Error-Code` in parentheses. Browsers and Node 22 hide the status, which is why the bridge
 * answers a client that offers `pi-kit.v1` with an upgrade and a close that says why instead.
 */
import { closeReason } from "@pi-kit/protocol/bridge";
import { type SocketClose, WebSocketCloseError } from "./connection-state.ts";

/** The status of a refused handshake and the bridge's code for why, when it sent one. */
export interface RefusedHandshake {
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The bridge's `Pi-Kit-Error-Code` (`upgrade_failed`, `wrong_token`, …), when known. */
  readonly code: string | undefined;
}

/** Upgrade refusals that no retry can fix: bad request, token, origin, unknown session. */
const FINAL_HTTP_STATUSES = new Set([400, 401, 403, 404]);

const PATTERN =
  /(?:Unexpected server response|Invalid status code|Expected 101 status code):? (\d{3})(?: \(([a-z0-9_]+)\))?/;

/** The refusal an error event's message describes, or `undefined` when nothing answered. */
export function refusedHandshake(message: string): RefusedHandshake | undefined {
  const match = PATTERN.exec(message);
  if (match === null) return undefined;
  return { status: Number(match[1]), code: match[2] };
}

/** The message `ws-node`'s socket fails with: `ws`'s words, and the code in parentheses. */
export function refusedHandshakeMessage(status: number, code: string | undefined): string {
  return `Unexpected server response: ${status}${code === undefined ? "" : ` (${code})`}`;
}

/** Words for people: the status and the code. */
export function describeRefusedHandshake(refused: RefusedHandshake): string {
  const code = refused.code === undefined ? "" : ` (${refused.code})`;
  return `the bridge refused the connection with HTTP ${refused.status}${code}`;
}

/** The refusal as a socket's close: 1006 (no socket opened), with the bridge's code in the reason. */
export function refusedHandshakeClose(refused: RefusedHandshake): SocketClose {
  const reason = `HTTP ${refused.status}`;
  return {
    code: 1006,
    reason: closeReason(refused.code === undefined ? { reason } : { reason, code: refused.code }),
  };
}

/**
 * A socket that failed before it opened, from its error event's message: the close to report,
 * and the error that ends the transport when the status says no retry can fix it.
 */
export function failedHandshake(message: string): {
  readonly close: SocketClose;
  readonly final?: WebSocketCloseError;
} {
  const refused = refusedHandshake(message);
  if (refused === undefined) return { close: { code: 1006, reason: message } };
  const close = refusedHandshakeClose(refused);
  if (!FINAL_HTTP_STATUSES.has(refused.status)) return { close };
  return { close, final: new WebSocketCloseError(describeRefusedHandshake(refused), close) };
}
