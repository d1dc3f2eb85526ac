/**
 * The pairing API (see `security/pairing.ts`): `POST /api/sessions/:name/pair` mints a pairing
 * ticket, behind the history API's checks (a caller who may open the session); `POST /api/pair`
 * redeems one, once, and sits before authentication, for the pairing ticket is the credential.
 */
import type { Context, Hono, MiddlewareHandler } from "hono";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";
import type { OriginCheck } from "../security/origin.ts";
import type { Pairings } from "../security/pairing.ts";
import type { RouteChecks } from "./changes-routes.ts";

/** Adds `POST /sessions/:name/pair` to the session API `api`. */
export function pairingRoutes(api: Hono, checks: RouteChecks, pairings: Pairings): void {
  api.post("/sessions/:name/pair", async (c) => {
    try {
      const name = c.req.param("name");
      const scope = checks.scopeFor(c, name, false);
      if ((await scope.history.get(name)) === undefined) {
        return c.json({ error: "No such session", code: BridgeErrorCode.UnknownSession }, 404);
      }
      return c.json(pairings.mint(scope, name), 201);
    } catch (error) {
      return checks.fail(c, error);
    }
  });
}

/** `POST /api/pair` with `{"ticket": <ticket or short code>}`: the paired device's credential. */
export function redeemRoute(
  pairings: Pairings,
  originAllowed: OriginCheck,
  jsonBody: RouteChecks["jsonBody"],
  failure: (c: Context, error: unknown) => Response,
): MiddlewareHandler {
  return async (c) => {
    try {
      if (!originAllowed(c.req.header("origin") ?? null)) {
        return c.json({ error: "Origin not allowed", code: BridgeErrorCode.OriginNotAllowed }, 403);
      }
      const usage = 'The body must be JSON: {"ticket": string}';
      const { ticket } = await jsonBody(c, usage);
      if (typeof ticket !== "string" || ticket.length > 200) {
        throw new BridgeError(BridgeErrorCode.InvalidRequest, usage);
      }
      return c.json(pairings.redeem(ticket));
    } catch (error) {
      return failure(c, error);
    }
  };
}
