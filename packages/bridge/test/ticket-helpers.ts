/** Test helpers for tickets: keys, minting, and a bridge that accepts both algorithms. */
import { exportSPKI, generateKeyPair, SignJWT } from "jose";
import type { TicketOptions } from "../src/index.ts";
import { type BridgeAddress, startBridge, type TestBridge } from "./helpers.ts";

/** A 32-byte HS256 secret. */
export const SECRET = "test-secret-0123456789-abcdefghijklmnop";

/** The keys of a bridge that takes HS256 and EdDSA tickets. */
export interface TicketKeys {
  readonly options: TicketOptions;
  readonly privateKey: CryptoKey;
}

/** A fresh Ed25519 key pair, the public half as SPKI PEM in `options`. */
export async function ticketKeys(): Promise<TicketKeys> {
  const { publicKey, privateKey } = await generateKeyPair("EdDSA", { extractable: true });
  return { options: { secret: SECRET, publicKey: await exportSPKI(publicKey) }, privateKey };
}

/** What a test ticket holds, and how it is signed. */
export interface MintOptions {
  readonly sub: string;
  readonly sessions?: readonly string[];
  readonly sessionPrefix?: string;
  readonly readOnly?: boolean;
  readonly alg?: "HS256" | "EdDSA";
  /** Seconds from now; negative for an expired ticket. Default 60. */
  readonly expiresIn?: number;
  /** Seconds from now for `nbf`. */
  readonly notBefore?: number;
  readonly audience?: string;
  /** Signs HS256 with this secret instead of {@link SECRET}. */
  readonly secret?: string;
}

/** Mints a ticket as an application's backend would. */
export async function mint(keys: TicketKeys, options: MintOptions): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {};
  if (options.sessions !== undefined) claims.sessions = options.sessions;
  if (options.sessionPrefix !== undefined) claims.sessionPrefix = options.sessionPrefix;
  if (options.readOnly !== undefined) claims.readOnly = options.readOnly;
  const alg = options.alg ?? "HS256";
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg })
    .setSubject(options.sub)
    .setAudience(options.audience ?? "pi-kit-bridge")
    .setIssuedAt(now - 10)
    .setExpirationTime(now + (options.expiresIn ?? 60));
  if (options.notBefore !== undefined) jwt.setNotBefore(now + options.notBefore);
  return alg === "HS256"
    ? jwt.sign(new TextEncoder().encode(options.secret ?? SECRET))
    : jwt.sign(keys.privateKey);
}

/** An unsigned ticket (`alg: none`) with these claims. */
export function unsigned(claims: Record<string, unknown>): string {
  const part = (value: unknown): string =>
    btoa(JSON.stringify(value)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  return `${part({ alg: "none", typ: "JWT" })}.${part(claims)}.`;
}

/** The bridge's address with a ticket in place of the token; `label` names the connection. */
export function withTicket(bridge: TestBridge, ticket: string, label?: string): BridgeAddress {
  return {
    wsUrl: (name) =>
      label === undefined
        ? bridge.wsUrl(name)
        : `${bridge.wsUrl(name)}?label=${encodeURIComponent(label)}`,
    token: ticket,
  };
}

/** A bridge under test that accepts tickets signed with `keys`. */
export async function startTicketBridge(
  keys: TicketKeys,
  options: Parameters<typeof startBridge>[0] = {},
): Promise<TestBridge> {
  return startBridge({ tickets: keys.options, ...options });
}

/** An HTTP call to the bridge's API with `credential` as the bearer. */
export function api(
  bridge: TestBridge,
  credential: string,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<Response> {
  return fetch(`${bridge.url}/api${path}`, {
    method: init.method ?? "GET",
    headers: {
      authorization: `Bearer ${credential}`,
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}
