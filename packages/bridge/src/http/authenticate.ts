/**
 * Authentication of every request past the health routes: the origin, then the credential (the
 * bridge's static token, a user's ticket, or a paired device's credential), then whether the bridge still takes work. What a
 * request may reach is kept by request, for the routes to read with {@link Authentication.accessOf}.
 */
import type { Context, MiddlewareHandler } from "hono";
import { BridgeErrorCode } from "../errors/bridge-error.ts";
import { type Access, BRIDGE_ACCESS, type ForwardedIdentity } from "../principals/access.ts";
import { userOwner } from "../principals/owner.ts";
import type { OriginCheck } from "../security/origin.ts";
import { PAIRED_CREDENTIAL_PREFIX, type Pairings } from "../security/pairing.ts";
import {
  looksLikeTicket,
  TicketError,
  type TicketGrant,
  type TicketVerifier,
} from "../security/tickets.ts";
import { presentedToken, tokensEqual } from "../security/token.ts";
import type { Refuse } from "./refusal.ts";

/** What authentication needs from the bridge. */
export interface AuthenticationOptions {
  /** The bridge's static token. */
  readonly token: string;
  /** Verifies a user's ticket, when the bridge accepts tickets. */
  readonly tickets: TicketVerifier | undefined;
  /** The credentials of paired devices (see `Pairings`). */
  readonly pairings?: Pairings;
  readonly originAllowed: OriginCheck;
  /** Whether the bridge is closing (then everything is refused with 503). */
  readonly closing: () => boolean;
  readonly refuse: Refuse;
  /**
   * Cluster mode: the identity another node vouches for on a request it forwarded here (`null`
   * when one was presented but does not verify, `undefined` when none was).
   */
  readonly forwardedIdentity?: (request: Request) => Promise<ForwardedIdentity | null | undefined>;
}

/** The authentication middleware, and what it granted each request. */
export interface Authentication {
  readonly middleware: MiddlewareHandler;
  /** What the authenticated request `c` may reach. */
  accessOf(c: Context): Access;
  /** The caller's `Origin`: the request's own, or the one a forwarding node vouched for. */
  originOf(c: Context): string | undefined;
}

/** Creates the bridge's {@link Authentication}. */
export function authentication(options: AuthenticationOptions): Authentication {
  const { refuse, tickets } = options;
  const accesses = new WeakMap<Request, Access>();
  const origins = new WeakMap<Request, string>();
  return {
    middleware: async (c, next) => {
      if (!options.originAllowed(c.req.header("origin") ?? null)) {
        return refuse(c, 403, "Origin not allowed", BridgeErrorCode.OriginNotAllowed);
      }
      const forwarded = await options.forwardedIdentity?.(c.req.raw);
      const token = presentedToken(c.req.raw.headers);
      if (forwarded === null) {
        return refuse(c, 401, "The forwarded identity does not verify", BridgeErrorCode.WrongToken);
      } else if (forwarded !== undefined) {
        accesses.set(c.req.raw, forwardedAccess(forwarded));
        if (forwarded.origin !== undefined) origins.set(c.req.raw, forwarded.origin);
      } else if (token === undefined) {
        return refuse(c, 401, "Missing token", BridgeErrorCode.MissingToken);
      } else if (tokensEqual(token, options.token)) {
        accesses.set(c.req.raw, BRIDGE_ACCESS);
      } else if (options.pairings !== undefined && token.startsWith(PAIRED_CREDENTIAL_PREFIX)) {
        const access = options.pairings.accessOf(token);
        if (access === undefined) {
          return refuse(c, 401, "Wrong or expired pairing credential", BridgeErrorCode.WrongToken);
        }
        accesses.set(c.req.raw, access);
      } else if (tickets !== undefined && looksLikeTicket(token)) {
        try {
          accesses.set(c.req.raw, ticketAccess(await tickets(token)));
        } catch (error) {
          if (!(error instanceof TicketError)) throw error;
          return refuse(c, 401, error.message, error.code);
        }
      } else {
        return refuse(c, 401, "Wrong token", BridgeErrorCode.WrongToken);
      }
      if (options.closing()) {
        return refuse(c, 503, "The bridge is closing", BridgeErrorCode.Closing);
      }
      await next();
    },
    accessOf: (c) => {
      const access = accesses.get(c.req.raw);
      // Unreachable past the middleware; refusing keeps a future route from opening everything.
      if (access === undefined)
        throw new Error("A request reached a session route unauthenticated");
      return access;
    },
    originOf: (c) => origins.get(c.req.raw) ?? c.req.header("origin"),
  };
}

/** The access a forwarding node vouched for: its one session, as the caller's credential allowed. */
function forwardedAccess(identity: ForwardedIdentity): Access {
  return {
    owner: identity.owner,
    allows: (name) => name === identity.name,
    limited: true,
    readOnly: identity.readOnly,
    ...(identity.expiresAt === undefined ? {} : { expiresAt: identity.expiresAt }),
  };
}

/** The access of a verified ticket. */
function ticketAccess(grant: TicketGrant): Access {
  return {
    owner: userOwner(grant.user),
    allows: grant.allows,
    limited: !grant.allowsAll,
    readOnly: grant.readOnly,
    expiresAt: grant.expiresAt,
  };
}
