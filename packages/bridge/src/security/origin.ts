/**
 * The `Origin` allowlist. Browsers always send `Origin` on a WebSocket handshake and on
 * cross-origin fetches, and a page cannot forge it: checking it stops cross-site WebSocket
 * hijacking (a page on another site opening a socket to the bridge on the user's machine).
 */

/** Decides whether a request's `Origin` may use the bridge. */
export type OriginCheck = (origin: string | null) => boolean;

/** Lower-cased, without a trailing slash: `https://App.example/` matches `https://app.example`. */
function normalize(origin: string): string {
  return origin.trim().toLowerCase().replace(/\/+$/, "");
}

/**
 * Builds the check. A request without `Origin` is not from a browser page (curl, a server, the
 * pi-kit client on Node) and is allowed: the token still guards it. A request with one must be
 * listed exactly (`"https://app.example:8443"`); `"*"` allows every origin and is meant for
 * trusted networks only; the opaque origin `"null"` (sandboxed frames, `file:`) only when listed.
 */
export function createOriginCheck(allowed: readonly string[]): OriginCheck {
  const any = allowed.includes("*");
  const set = new Set(allowed.map(normalize));
  return (origin) => origin === null || any || set.has(normalize(origin));
}
