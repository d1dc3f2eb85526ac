/**
 * Per-user tickets: short-lived JWTs an application's backend signs for its logged-in user (HS256
 * with a shared secret, or EdDSA with a key pair whose public half the bridge holds). A ticket
 * names the user (`sub`), the sessions it opens (`sessions`, `sessionPrefix`), its expiry (`exp`)
 * and optionally `readOnly`. It travels where the static token does.
 */
import { createPublicKey } from "node:crypto";
import { TicketRefusal } from "@pi-kit/protocol/bridge";
import { errors, importSPKI, type JWTPayload, jwtVerify } from "jose";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";

/** The audience a ticket must name when the bridge is given none. */
export const DEFAULT_TICKET_AUDIENCE = "pi-kit-bridge";
/** The most UTF-8 bytes of a ticket's `sub`. */
export const MAX_TICKET_SUBJECT_BYTES = 256;
/** The fewest bytes of an HS256 secret (RFC 7518: at least the hash size). */
const MIN_SECRET_BYTES = 32;
/**
 * How far clocks may disagree, in seconds: a ticket is accepted until `exp` plus this, and a
 * socket it opened is closed then.
 */
export const TICKET_CLOCK_TOLERANCE_S = 5;

/** How the bridge checks tickets: at least one of `secret` and `publicKey`. */
export interface TicketOptions {
  /** HS256 shared secret, at least 32 bytes. Keep it out of logs and command lines. */
  readonly secret?: string | Uint8Array;
  /** EdDSA (Ed25519) public key: SPKI PEM (`-----BEGIN PUBLIC KEY-----`) or a `CryptoKey`. */
  readonly publicKey?: string | CryptoKey;
  /** The `aud` a ticket must name. Default `"pi-kit-bridge"`. */
  readonly audience?: string;
  /** The `iss` a ticket must name, when set. */
  readonly issuer?: string;
}

/** The claims of a ticket (see {@link TicketOptions}); `exp` is required. */
export interface TicketClaims extends JWTPayload {
  /** The user: their sessions live in a directory of their own. */
  readonly sub: string;
  /** Session names the ticket opens exactly. */
  readonly sessions?: readonly string[];
  /** Session names starting with this open too (`""`: every session of the user). */
  readonly sessionPrefix?: string;
  /** The holder watches: no commands, no dialog answers, no changes through the API. */
  readonly readOnly?: boolean;
}

/** What a verified ticket grants. */
export interface TicketGrant {
  /** The user (`sub`). */
  readonly user: string;
  /** Whether session `name` is one the ticket opens. */
  allows(name: string): boolean;
  /** Whether it opens every session of the user (`sessionPrefix: ""`). */
  readonly allowsAll: boolean;
  /** The holder may only watch. */
  readonly readOnly: boolean;
  /** When the ticket expires (`exp`), in ms since the epoch. */
  readonly expiresAt: number;
}

/** A ticket the bridge refuses: the `code` says why; the message names no value. */
export class TicketError extends Error {
  /** Why. */
  readonly code: TicketRefusal;

  constructor(code: TicketRefusal, message: string) {
    super(message);
    this.name = "TicketError";
    this.code = code;
  }

  /** 403 for what a valid ticket does not allow, else 401. */
  get status(): 401 | 403 {
    return this.code === TicketRefusal.NotInTicket || this.code === TicketRefusal.ReadOnly
      ? 403
      : 401;
  }
}

/** Verifies tickets with the keys of {@link TicketOptions}. */
export type TicketVerifier = (ticket: string) => Promise<TicketGrant>;

/** Whether `credential` has the shape of a JWT (three base64url parts), so it is a ticket and not a token. */
export function looksLikeTicket(credential: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/.test(credential);
}

/**
 * A verifier for `options`. Throws a `BridgeError` (`invalid_options`) for a short secret or a
 * public key that is not an Ed25519 SPKI PEM.
 */
export function createTicketVerifier(options: TicketOptions): TicketVerifier {
  const { secret, publicKey } = options;
  if (secret === undefined && publicKey === undefined) {
    throw new BridgeError(BridgeErrorCode.InvalidOptions, "Tickets need a secret or a public key");
  }
  const secretKey = secret === undefined ? undefined : secretBytes(secret);
  if (secretKey !== undefined && secretKey.length < MIN_SECRET_BYTES) {
    throw new BridgeError(
      BridgeErrorCode.InvalidOptions,
      `The ticket secret must be at least ${MIN_SECRET_BYTES} bytes`,
    );
  }
  if (typeof publicKey === "string" && !isEd25519Pem(publicKey)) {
    throw new BridgeError(
      BridgeErrorCode.InvalidOptions,
      "The ticket public key must be an Ed25519 public key in SPKI PEM (-----BEGIN PUBLIC KEY-----)",
    );
  }
  // Checked above, so the import does not fail.
  const edKey: Promise<CryptoKey | undefined> =
    typeof publicKey === "string" ? importSPKI(publicKey, "EdDSA") : Promise.resolve(publicKey);
  const algorithms = [
    ...(secretKey === undefined ? [] : ["HS256"]),
    ...(publicKey === undefined ? [] : ["EdDSA"]),
  ];
  const audience = options.audience ?? DEFAULT_TICKET_AUDIENCE;

  return async (ticket) => {
    const ed = await edKey;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(
        ticket,
        (header) => {
          const key = header.alg === "HS256" ? secretKey : ed;
          if (key === undefined) throw new errors.JOSEAlgNotAllowed("algorithm not allowed");
          return key;
        },
        {
          algorithms,
          audience,
          ...(options.issuer === undefined ? {} : { issuer: options.issuer }),
          requiredClaims: ["exp", "sub"],
          clockTolerance: TICKET_CLOCK_TOLERANCE_S,
        },
      ));
    } catch (error) {
      throw refusal(error);
    }
    return grant(payload);
  };
}

/** Whether `pem` is an Ed25519 public key in SPKI PEM (a private key is not). */
function isEd25519Pem(pem: string): boolean {
  if (!pem.includes("-----BEGIN PUBLIC KEY-----")) return false;
  try {
    return createPublicKey(pem).asymmetricKeyType === "ed25519";
  } catch {
    return false;
  }
}

/** The grant of a verified payload; throws a `TicketError` (`ticket_malformed`) for bad claims. */
function grant(payload: JWTPayload): TicketGrant {
  const { sub, sessions, sessionPrefix, readOnly, exp } = payload as Record<string, unknown>;
  const malformed = (what: string): TicketError =>
    new TicketError(TicketRefusal.Malformed, `The ticket's ${what}`);
  if (
    typeof sub !== "string" ||
    sub === "" ||
    new TextEncoder().encode(sub).length > MAX_TICKET_SUBJECT_BYTES
  ) {
    throw malformed(`sub must be a string of 1-${MAX_TICKET_SUBJECT_BYTES} bytes`);
  }
  if (
    sessions !== undefined &&
    (!Array.isArray(sessions) || !sessions.every((s) => typeof s === "string"))
  ) {
    throw malformed("sessions must be an array of session names");
  }
  if (sessionPrefix !== undefined && typeof sessionPrefix !== "string") {
    throw malformed("sessionPrefix must be a string");
  }
  if (sessions === undefined && sessionPrefix === undefined) {
    throw malformed("sessions or sessionPrefix must say which sessions it opens");
  }
  if (readOnly !== undefined && typeof readOnly !== "boolean") {
    throw malformed("readOnly must be a boolean");
  }
  // jose has checked that `exp` is a number in the future (within the tolerance).
  if (typeof exp !== "number") throw malformed("exp must be a number");
  const exact = new Set<string>((sessions as string[] | undefined) ?? []);
  return {
    user: sub,
    expiresAt: exp * 1000,
    readOnly: readOnly === true,
    allowsAll: sessionPrefix === "",
    allows: (name) =>
      exact.has(name) || (sessionPrefix !== undefined && name.startsWith(sessionPrefix)),
  };
}

/** The `TicketError` for an error of `jose`. */
function refusal(error: unknown): TicketError {
  if (error instanceof TicketError) return error;
  if (error instanceof errors.JWTExpired) {
    return new TicketError(TicketRefusal.Expired, "The ticket has expired");
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "nbf" || error.claim === "iat") {
      return new TicketError(TicketRefusal.NotYetValid, "The ticket is not valid yet");
    }
    if (error.claim === "aud" || error.claim === "iss") {
      return new TicketError(TicketRefusal.WrongAudience, "The ticket is for another audience");
    }
    return new TicketError(TicketRefusal.Malformed, "The ticket lacks a required claim");
  }
  if (
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JOSEAlgNotAllowed ||
    error instanceof errors.JOSENotSupported
  ) {
    return new TicketError(TicketRefusal.BadSignature, "The ticket's signature does not verify");
  }
  return new TicketError(TicketRefusal.Malformed, "The ticket is not a valid JWT");
}

function secretBytes(secret: string | Uint8Array): Uint8Array {
  return typeof secret === "string" ? new TextEncoder().encode(secret) : secret;
}
