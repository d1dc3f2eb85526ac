/**
 * Who a forwarded request is, vouched for by the node that forwarded it. The forwarding node has
 * authenticated the caller already (the static token or a ticket, by header or subprotocol), so
 * it passes on what that credential granted, not the credential: a signed, short-lived statement
 * bound to the request's method, path and session, which the owner verifies with a key only the
 * cluster's nodes hold (derived from the static token every node shares). A client cannot forge
 * it, and a captured one opens nothing but that one request for half a minute. It also carries
 * the caller's `Origin`, which the owner logs as if the caller had connected directly.
 */
import { base64url } from "jose";
import type { ForwardedIdentity } from "../principals/access.ts";

/** The header an HTTP forward carries the identity in. */
export const IDENTITY_HEADER = "x-pi-kit-forwarded-identity";
/** The query parameter a forwarded socket carries it in (a handshake carries no custom header). */
export const IDENTITY_QUERY = "pi_kit_identity";
/** How long a signed identity is good for, either side of its signing (nodes' clocks drift a little). */
const VALID_MS = 30_000;
/** Separates these signatures from any other use of the token's bytes as a key. */
const CONTEXT = "pi-kit-bridge forwarded identity v1\n";

/** Signs and verifies forwarded identities with the cluster's key. */
export interface IdentitySigner {
  /** A credential for `identity` on a `method` request to `path` (the URL's pathname). */
  sign(identity: ForwardedIdentity, method: string, path: string): Promise<string>;
  /** The identity `credential` vouches for on this `method` and `path`, or `undefined` if it does not. */
  verify(credential: string, method: string, path: string): Promise<ForwardedIdentity | undefined>;
}

interface Payload {
  /** owner, name, readOnly, expiresAt, origin */
  o: string;
  n: string;
  r: boolean;
  x?: number;
  g?: string;
  /** method, path, signed at (ms) */
  m: string;
  p: string;
  t: number;
}

/** The signer of a cluster whose nodes share `token`. */
export function identitySigner(token: string, now: () => number = Date.now): IdentitySigner {
  const encoder = new TextEncoder();
  const key = crypto.subtle.importKey(
    "raw",
    encoder.encode(token),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
  const mac = async (body: string) =>
    new Uint8Array(await crypto.subtle.sign("HMAC", await key, encoder.encode(CONTEXT + body)));
  return {
    async sign(identity, method, path) {
      const payload: Payload = {
        o: identity.owner,
        n: identity.name,
        r: identity.readOnly,
        ...(identity.expiresAt === undefined ? {} : { x: identity.expiresAt }),
        ...(identity.origin === undefined ? {} : { g: identity.origin }),
        m: method.toUpperCase(),
        p: path,
        t: now(),
      };
      const body = base64url.encode(JSON.stringify(payload));
      return `${body}.${base64url.encode(await mac(body))}`;
    },
    async verify(credential, method, path) {
      const [body, signature, extra] = credential.split(".");
      if (body === undefined || signature === undefined || extra !== undefined) return undefined;
      const given = fromBase64url(signature);
      if (given === undefined) return undefined;
      const valid = await crypto.subtle.verify(
        "HMAC",
        await key,
        given,
        encoder.encode(CONTEXT + body),
      );
      if (!valid) return undefined;
      const payload = parsePayload(fromBase64url(body));
      if (payload === undefined) return undefined;
      if (payload.m !== method.toUpperCase() || payload.p !== path) return undefined;
      if (Math.abs(now() - payload.t) > VALID_MS) return undefined;
      return {
        owner: payload.o,
        name: payload.n,
        readOnly: payload.r,
        ...(payload.x === undefined ? {} : { expiresAt: payload.x }),
        ...(payload.g === undefined ? {} : { origin: payload.g }),
      };
    },
  };
}

function parsePayload(bytes: Uint8Array | undefined): Payload | undefined {
  if (bytes === undefined) return undefined;
  try {
    const value = JSON.parse(new TextDecoder().decode(bytes)) as Payload;
    const ok =
      typeof value.o === "string" &&
      typeof value.n === "string" &&
      typeof value.r === "boolean" &&
      typeof value.m === "string" &&
      typeof value.p === "string" &&
      typeof value.t === "number" &&
      (value.x === undefined || typeof value.x === "number") &&
      (value.g === undefined || typeof value.g === "string");
    return ok ? value : undefined;
  } catch {
    return undefined;
  }
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    // A copy on its own ArrayBuffer, as WebCrypto's types ask.
    return new Uint8Array(base64url.decode(text));
  } catch {
    return undefined;
  }
}
