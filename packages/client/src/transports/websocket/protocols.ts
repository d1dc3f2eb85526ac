/**
 * What the WebSocket transport offers a bridge: the subprotocol list with the token in it, and the
 * socket URL (the names themselves are the bridge protocol's, in `@pi-kit/protocol/bridge`).
 */
import { PROTOCOL_V1, TOKEN_PROTOCOL_PREFIX } from "@pi-kit/protocol/bridge";

/**
 * What a client presents to the bridge: its token or a per-user ticket, or a function returning
 * one, called for every connection and call (tickets are short-lived, so each reconnect gets a
 * fresh one).
 */
export type BridgeToken = string | (() => string | Promise<string>);

/** The token of `token` for this connection or call. */
export async function resolveToken(token: BridgeToken): Promise<string> {
  return typeof token === "function" ? token() : token;
}

/** What to offer one socket: the subprotocols, and the ticket among them when a token function gave one. */
export interface Offer {
  readonly protocols: string[];
  readonly ticket?: string;
}

/**
 * The offers of `token` and the `extra` subprotocols, one per socket: the same at once for a static
 * token, checked now; for a token function, a fresh one from each call, checked on each use.
 */
export function offers(
  token: BridgeToken | undefined,
  extra?: readonly string[],
): () => Offer | Promise<Offer> {
  if (typeof token !== "function") {
    const offer = { protocols: offeredProtocols(token, extra) };
    return () => offer;
  }
  return async () => {
    const fresh = await resolveToken(token);
    return { protocols: offeredProtocols(fresh, extra), ticket: fresh };
  };
}

// RFC 6455 subprotocols are RFC 7230 tokens; base64url and hex tokens fit, `=` padding does not.
const TOKEN_CHARS = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * The subprotocol list to offer: `pi-kit.v1`, the token entry, then `extra`. The token travels in
 * the `Sec-WebSocket-Protocol` header, never in the URL, so it stays out of access logs and history.
 * Throws a `TypeError` for a token or protocol a WebSocket cannot carry.
 */
export function offeredProtocols(
  token: string | undefined,
  extra: readonly string[] = [],
): string[] {
  const list = [PROTOCOL_V1];
  if (token !== undefined) {
    if (!TOKEN_CHARS.test(token)) {
      throw new TypeError(
        "the bridge token must use URL-safe token characters (for example base64url without '=' padding or hex)",
      );
    }
    list.push(TOKEN_PROTOCOL_PREFIX + token);
  }
  for (const protocol of extra) {
    if (!TOKEN_CHARS.test(protocol))
      throw new TypeError(`invalid WebSocket subprotocol: ${protocol}`);
    if (!list.includes(protocol)) list.push(protocol);
  }
  return list;
}

/**
 * Resolves `url` to a `ws:`/`wss:` URL: `http(s):` is mapped to `ws(s):`, and a relative URL is
 * resolved against the page in a browser. Throws a `TypeError` for a URL that carries a token in
 * its query (`token`, `access_token`), which would defeat keeping it out of logs.
 */
export function socketUrl(url: string | URL): string {
  const base = (globalThis as { location?: { href?: string } }).location?.href;
  const resolved = new URL(String(url), base);
  if (resolved.protocol === "http:") resolved.protocol = "ws:";
  else if (resolved.protocol === "https:") resolved.protocol = "wss:";
  if (resolved.protocol !== "ws:" && resolved.protocol !== "wss:") {
    throw new TypeError(
      `a WebSocket URL must be ws:, wss:, http: or https:, got ${resolved.protocol}`,
    );
  }
  for (const name of ["token", "access_token"]) {
    if (resolved.searchParams.has(name)) {
      throw new TypeError(`pass the token as the "token" option, not in the URL's "${name}" query`);
    }
  }
  return resolved.href;
}

/**
 * The address a transport connects to: {@link socketUrl} of `url` with the `label` and the
 * `viewer` key (a random one, 128 bits in hex, when none is given) as query parameters.
 */
export function socketAddress(options: {
  readonly url: string | URL;
  readonly label?: string | undefined;
  readonly viewerKey?: string | undefined;
}): string {
  const url = new URL(socketUrl(options.url));
  if (options.label !== undefined) url.searchParams.set("label", options.label);
  // getRandomValues, not randomUUID: a page served over plain HTTP on a LAN has only the former.
  const random = () =>
    Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0"));
  url.searchParams.set("viewer", options.viewerKey ?? random().join(""));
  return url.href;
}
