/**
 * The WebSocket subprotocols of a bridge connection. The token travels in the
 * `Sec-WebSocket-Protocol` header rather than the URL, so it stays out of access logs and browser
 * history, and browsers (which cannot set `Authorization` on a WebSocket) can send it.
 */

/** The subprotocol that names the wire format: one JSONL record per text message. */
export const PROTOCOL_V1 = "pi-kit.v1";

/** Prefix of the subprotocol entry that carries the bearer token: `pi-kit.token.<token>`. */
export const TOKEN_PROTOCOL_PREFIX = "pi-kit.token.";
