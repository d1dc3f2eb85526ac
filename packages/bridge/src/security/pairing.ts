/**
 * Pairing tickets: "continue on another device". A caller who may open a session mints one
 * (`POST /api/sessions/:name/pair`): a random ticket and a short code for typing, both naming the
 * same single-use record that lives about a minute. The other device redeems either once
 * (`POST /api/pair`) for a credential of its own that opens that one session with the minter's
 * rights, never more: a read-only caller pairs read-only, and a ticket user's pair ends with the
 * ticket. A second redemption, or one past the minute, is refused with a typed code.
 */
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";
import type { Access } from "../principals/access.ts";
import { TokenBucket } from "./rate-limit.ts";
import { generateToken } from "./token.ts";

/** How long a pairing ticket can be redeemed, in ms, when the bridge is given no other. */
export const DEFAULT_PAIRING_TTL_MS = 60_000;
/** How long a paired device's credential lasts when the minter's own never expires: 12 hours. */
export const PAIRED_CREDENTIAL_TTL_MS = 12 * 60 * 60_000;
/** The prefix of a paired device's credential, so authentication knows where to look it up. */
export const PAIRED_CREDENTIAL_PREFIX = "pkpaired_";
/** Letters and digits of a short code: no 0/O, 1/I/L, so a code read off a screen types right. */
const CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/** Characters of a short code: 31^8 ≈ 8.5·10^11, against a few wrong guesses a second. */
const CODE_LENGTH = 8;
/** The most pairing tickets waiting at once; past it the oldest is dropped. */
const MAX_PENDING = 1000;

/** How pairing tickets behave; both settings are for tests and hosts with special needs. */
export interface PairingOptions {
  /** How long a pairing ticket can be redeemed, in ms. Default 60 000. */
  readonly ttlMs?: number;
  /** The clock, ms since the epoch. Default `Date.now`. */
  readonly now?: () => number;
}

/** A freshly minted pairing ticket: the answer of `POST /api/sessions/:name/pair`. */
export interface PairingTicket {
  /** The ticket, for a link or a QR code. */
  readonly ticket: string;
  /** The same ticket as a short code for typing (8 characters, no look-alikes). */
  readonly code: string;
  /** The session it opens. */
  readonly session: string;
  /** Whether the paired device may only watch. */
  readonly readOnly: boolean;
  /** When it can no longer be redeemed, ms since the epoch. */
  readonly expiresAt: number;
}

/** What a redeemed pairing ticket gives the new device: the answer of `POST /api/pair`. */
export interface PairedCredential {
  /** The device's own credential: present it where the token goes. */
  readonly credential: string;
  /** The one session it opens. */
  readonly session: string;
  /** Whether it may only watch. */
  readonly readOnly: boolean;
  /** When the credential expires, ms since the epoch. */
  readonly expiresAt: number;
}

interface Pending {
  readonly ticket: string;
  readonly code: string;
  readonly session: string;
  readonly access: Access;
  readonly expiresAt: number;
}

/** The pairing tickets of one bridge, and the credentials they were redeemed for. */
export class Pairings {
  readonly #ttlMs: number;
  readonly #now: () => number;
  /** Waiting tickets, by ticket and by code (the same record twice). */
  readonly #pending = new Map<string, Pending>();
  /** Redeemed and expired ones, kept a while, so reuse says "used" or "expired", not "unknown". */
  readonly #spent = new Map<string, { readonly code: SpentCode; readonly until: number }>();
  readonly #credentials = new Map<string, Access>();
  /** Wrong guesses of the whole bridge: a code cannot be guessed in its minute. */
  readonly #guesses: TokenBucket;

  constructor(options: PairingOptions = {}) {
    this.#ttlMs = options.ttlMs ?? DEFAULT_PAIRING_TTL_MS;
    this.#now = options.now ?? Date.now;
    if (!(this.#ttlMs > 0)) {
      throw new BridgeError(BridgeErrorCode.InvalidOptions, "The pairing TTL must be above 0 ms");
    }
    this.#guesses = new TokenBucket(5, 20);
  }

  /** Mints a pairing ticket for session `session` with the caller's `access` (checked by the caller). */
  mint(access: Access, session: string): PairingTicket {
    this.#sweep();
    const now = this.#now();
    const expiresAt = Math.min(now + this.#ttlMs, access.expiresAt ?? Number.POSITIVE_INFINITY);
    const pending: Pending = {
      ticket: `pkpair_${generateToken()}`,
      code: shortCode(),
      session,
      access,
      expiresAt,
    };
    this.#pending.set(pending.ticket, pending);
    this.#pending.set(pending.code, pending);
    return {
      ticket: pending.ticket,
      code: pending.code,
      session,
      readOnly: access.readOnly,
      expiresAt,
    };
  }

  /**
   * Redeems a ticket or its code, once: removes it before anything else can see it. Throws a
   * `BridgeError` (`pairing_used`, `pairing_expired`, `pairing_unknown`).
   */
  redeem(ticketOrCode: string): PairedCredential {
    const key = normalise(ticketOrCode);
    const now = this.#now();
    const pending = this.#pending.get(key);
    if (pending === undefined) {
      const spent = this.#spent.get(key);
      if (spent !== undefined) throw spentError(spent.code);
      if (!this.#guesses.tryConsume()) {
        throw new BridgeError(BridgeErrorCode.PairingUnknown, "Too many wrong pairing codes");
      }
      throw new BridgeError(BridgeErrorCode.PairingUnknown, "No such pairing ticket");
    }
    if (now >= pending.expiresAt) {
      this.#spend(pending, BridgeErrorCode.PairingExpired);
      throw spentError(BridgeErrorCode.PairingExpired);
    }
    this.#spend(pending, BridgeErrorCode.PairingUsed);
    const credential = `${PAIRED_CREDENTIAL_PREFIX}${generateToken()}`;
    const expiresAt = pending.access.expiresAt ?? now + PAIRED_CREDENTIAL_TTL_MS;
    const { owner, readOnly } = pending.access;
    const minter = pending.access;
    this.#credentials.set(credential, {
      owner,
      readOnly,
      limited: true,
      expiresAt,
      allows: (name) => name === pending.session && minter.allows(name),
    });
    return { credential, session: pending.session, readOnly, expiresAt };
  }

  /** The access of a paired device's `credential`; `undefined` when unknown or expired. */
  accessOf(credential: string): Access | undefined {
    const access = this.#credentials.get(credential);
    if (access === undefined) return undefined;
    if (this.#now() >= (access.expiresAt ?? Number.POSITIVE_INFINITY)) {
      this.#credentials.delete(credential);
      return undefined;
    }
    return access;
  }

  /** Takes `pending` out of the waiting ones, remembered for a TTL more as `code`. */
  #spend(pending: Pending, code: SpentCode): void {
    this.#pending.delete(pending.ticket);
    this.#pending.delete(pending.code);
    const spent = { code, until: Math.max(pending.expiresAt, this.#now()) + this.#ttlMs };
    this.#spent.set(pending.ticket, spent);
    this.#spent.set(pending.code, spent);
  }

  /** Drops what has expired, and the oldest waiting tickets past the cap. */
  #sweep(): void {
    const now = this.#now();
    for (const pending of this.#pending.values()) {
      if (now >= pending.expiresAt) this.#spend(pending, BridgeErrorCode.PairingExpired);
    }
    for (const [key, spent] of this.#spent) if (now >= spent.until) this.#spent.delete(key);
    for (const [key, access] of this.#credentials) {
      if (now >= (access.expiresAt ?? Number.POSITIVE_INFINITY)) this.#credentials.delete(key);
    }
    for (const key of this.#pending.keys()) {
      if (this.#pending.size < MAX_PENDING * 2) break;
      this.#pending.delete(key);
    }
  }
}

type SpentCode = typeof BridgeErrorCode.PairingUsed | typeof BridgeErrorCode.PairingExpired;

/** The refusal of a ticket spent as `code`. */
function spentError(code: SpentCode): BridgeError {
  return new BridgeError(
    code,
    code === BridgeErrorCode.PairingUsed
      ? "This pairing link was already used; make a new one on the other device"
      : "This pairing link has expired; make a new one on the other device",
  );
}

/** A short code: uniform over {@link CODE_ALPHABET} (rejection sampling keeps it unbiased). */
function shortCode(): string {
  let code = "";
  while (code.length < CODE_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(CODE_LENGTH))) {
      // 248 = 8 × 31: bytes from it would favour the first letters.
      if (byte < 248 && code.length < CODE_LENGTH) code += CODE_ALPHABET[byte % 31];
    }
  }
  return code;
}

/** A code as typed (any case, spaces or dashes), or a ticket as given. */
function normalise(input: string): string {
  const text = input.trim();
  if (text.startsWith("pkpair_")) return text;
  return text.toUpperCase().replace(/[\s-]/g, "");
}
