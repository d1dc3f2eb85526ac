/**
 * The bridge's shared-secret token: generation, constant-time comparison, and where a request
 * carries it (`Authorization: Bearer`, or a `Sec-WebSocket-Protocol` entry for browsers).
 */
import { TOKEN_PROTOCOL_PREFIX } from "@pi-kit/protocol/bridge";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";
import { headerList } from "../headers/header-list.ts";

/** Characters allowed in a token: base64url plus `.` and `~`, all legal in a subprotocol name. */
const TOKEN_PATTERN = /^[A-Za-z0-9._~-]{16,512}$/;

/** A fresh token: 32 random bytes (256 bits) from `crypto.getRandomValues`, base64url. */
export function generateToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** Throws unless `token` can travel in a subprotocol entry and is long enough to guess badly. */
export function assertUsableToken(token: string): void {
  if (!TOKEN_PATTERN.test(token)) {
    throw new BridgeError(
      BridgeErrorCode.InvalidOptions,
      "The token must be 16-512 characters of A-Z a-z 0-9 . _ ~ - (it travels in Sec-WebSocket-Protocol); omit it to get a generated one",
    );
  }
}

/**
 * Compares two tokens in time that depends only on the expected token's length, not on where
 * they differ, so response timing leaks nothing about the secret.
 */
export function tokensEqual(given: string, expected: string): boolean {
  const encoder = new TextEncoder();
  const a = encoder.encode(given);
  const b = encoder.encode(expected);
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (b[i] as number) ^ (a[i] ?? 0);
  return diff === 0;
}

/** The subprotocol entries a WebSocket handshake offers, in order, however the list is spaced. */
export function offeredProtocols(headers: Headers): string[] {
  return headerList(headers, "sec-websocket-protocol");
}

/** The token a request presents: `Authorization: Bearer <t>`, else a `pi-kit.token.<t>` subprotocol. */
export function presentedToken(headers: Headers): string | undefined {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match !== null) return match[1];
  }
  for (const entry of offeredProtocols(headers)) {
    if (entry.startsWith(TOKEN_PROTOCOL_PREFIX)) return entry.slice(TOKEN_PROTOCOL_PREFIX.length);
  }
  return undefined;
}
