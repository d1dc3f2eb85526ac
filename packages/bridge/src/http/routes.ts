/**
 * The session API, which is the history of the caller's owner (the bridge's own sessions, or a
 * ticket user's): `GET /api/sessions` lists every session (running or not, paged; with a ticket,
 * those it opens), `POST /api/sessions` creates or opens one, `GET`, `PATCH` (rename) and `DELETE`
 * act on one, `POST /api/sessions/:name/stop` stops its pi, and `GET /api/sessions/:name/files`
 * searches its workspace for `@` mentions; `…/uploads` takes files (`upload-routes.ts`); `POST /api/sessions/:name/pair` mints a pairing ticket
 * (`pairing-routes.ts`). Bodies and answers are the
 * `SessionSummary` shapes of `@pi-kit/client`. Authentication and the Origin check run before
 * these, in the bridge, which says what the caller may reach. The changes API
 * (`changes-routes.ts`) sits beside them, behind the same checks.
 */

import { TicketRefusal } from "@pi-kit/protocol/bridge";
import { type Context, Hono } from "hono";
import { BridgeError, BridgeErrorCode, type BridgeErrorStatus } from "../errors/bridge-error.ts";
import type { SessionFiles } from "../files/session-files.ts";
import type { BridgeHistory } from "../history/bridge-history.ts";
import { type BridgeLogger, logLabel, originLabel, safeLog } from "../logging/logger.ts";
import type { BridgeMetrics } from "../metrics/bridge-metrics.ts";
import { ClusterRefusalError } from "../placement/owned-elsewhere.ts";
import type { Access } from "../principals/access.ts";
import { sessionKey } from "../principals/owner.ts";
import { assertSessionName } from "../principals/session-name.ts";
import type { Pairings } from "../security/pairing.ts";
import { TicketError } from "../security/tickets.ts";
import { type ChangesRouteOptions, changesRoutes } from "./changes-routes.ts";
import { pairingRoutes } from "./pairing-routes.ts";
import { type UploadRouteOptions, uploadRoutes } from "./upload-routes.ts";

/** Request body of `POST /api/sessions`. */
export interface CreateSessionBody {
  /** The session name; a random one when omitted. */
  readonly name?: string;
}

/** Request body of `PATCH /api/sessions/:name`. */
export interface RenameSessionBody {
  /** The new title: pi's session name. */
  readonly title: string;
}

/** The page size when a request gives none. */
export const DEFAULT_PAGE_SIZE = 50;
/** The largest page the API serves; larger `limit`s are capped to it. */
export const MAX_PAGE_SIZE = 200;

/** What a request reaches: its access, and the history of the owner it reaches. */
export interface RequestScope extends Access {
  readonly history: BridgeHistory;
  /** The workspace file search (`GET /api/sessions/:name/files`); without it that route is a 404. */
  readonly files?: SessionFiles;
}

/** The answer to a request for a session this cluster node may not run (see `ClusterNode`). */
export type ClusterForward = (c: Context, error: ClusterRefusalError) => Promise<Response>;

/**
 * The session API routes, to mount under `/api`; `scopeOf` says what a request reaches. In
 * cluster mode `forward` answers requests for sessions another node owns, and `metrics` counts
 * every error answer by its code. With `changes`, the changes API is served too; with `pairings`,
 * the pairing route; with `uploads`, the upload API (`upload-routes.ts`).
 */
export function sessionRoutes(
  scopeOf: (c: Context) => RequestScope,
  logger: BridgeLogger,
  forward?: ClusterForward,
  metrics?: Pick<BridgeMetrics, "refusals">,
  changes?: ChangesRouteOptions,
  pairings?: Pairings,
  uploads?: UploadRouteOptions,
): Hono {
  const api = new Hono();
  /**
   * The scope of a request on session `name`, when it may `change` it. Throws a `BridgeError`
   * (`invalid_session_name`) for a name that is no session name, before anything looks it up,
   * and a `TicketError` for what the ticket does not allow.
   */
  const scopeFor = (c: Context, name: string, change: boolean): RequestScope => {
    assertSessionName(name);
    const scope = scopeOf(c);
    if (change && scope.readOnly) {
      throw new TicketError(TicketRefusal.ReadOnly, "The ticket is read-only");
    }
    if (!scope.allows(name)) {
      throw new TicketError(TicketRefusal.NotInTicket, "The ticket does not open this session");
    }
    return scope;
  };
  const fail = (c: Context, error: unknown): Response | Promise<Response> => {
    if (error instanceof ClusterRefusalError && forward !== undefined) return forward(c, error);
    const code =
      error instanceof TicketError || error instanceof BridgeError
        ? error.code
        : BridgeErrorCode.Internal;
    metrics?.refusals.inc({ code });
    if (error instanceof TicketError) {
      const name = c.req.param("name");
      safeLog(logger, {
        event: "connection_rejected",
        status: error.status,
        reason: error.message,
        code: error.code,
        ...(name === undefined ? {} : { session: logLabel(name, 64) }),
        origin: originLabel(c.req.header("origin")),
      });
      return c.json({ error: error.message, code: error.code }, error.status);
    }
    return failure(c, error);
  };

  api.get("/sessions", async (c) => {
    try {
      const limit = pageSize(c.req.query("limit"));
      const { history, limited, allows } = scopeOf(c);
      const page = await history.list({
        limit,
        cursor: c.req.query("cursor") || undefined,
        query: c.req.query("q") || undefined,
        only: limited ? allows : undefined,
      });
      return c.json(page);
    } catch (error) {
      return fail(c, error);
    }
  });

  api.post("/sessions", async (c) => {
    try {
      const body = await jsonBody(c, 'The body must be JSON: {"name"?: string}');
      const raw = body.name;
      if (raw !== undefined && typeof raw !== "string") {
        throw new BridgeError(BridgeErrorCode.InvalidRequest, "`name` must be a string");
      }
      const name = raw ?? randomName();
      const { history } = scopeFor(c, name, true);
      const { existed } = await history.open(name, true);
      const session = await history.get(name);
      return c.json({ session }, existed ? 200 : 201);
    } catch (error) {
      return fail(c, error);
    }
  });

  api.get("/sessions/:name", async (c) => {
    try {
      const name = c.req.param("name");
      const session = await scopeFor(c, name, false).history.get(name);
      if (session === undefined) {
        return c.json({ error: "No such session", code: BridgeErrorCode.UnknownSession }, 404);
      }
      return c.json({ session });
    } catch (error) {
      return fail(c, error);
    }
  });

  api.patch("/sessions/:name", async (c) => {
    try {
      const name = c.req.param("name") as string;
      const { history } = scopeFor(c, name, true);
      const body = await jsonBody(c, 'The body must be JSON: {"title": string}');
      if (typeof body.title !== "string") {
        throw new BridgeError(BridgeErrorCode.InvalidRequest, "`title` must be a string");
      }
      return c.json({ session: await history.rename(name, body.title) });
    } catch (error) {
      return fail(c, error);
    }
  });

  api.delete("/sessions/:name", async (c) => {
    try {
      const name = c.req.param("name");
      await scopeFor(c, name, true).history.delete(name);
      return c.body(null, 204);
    } catch (error) {
      return fail(c, error);
    }
  });

  api.get("/sessions/:name/files", async (c) => {
    try {
      const name = c.req.param("name");
      const { history, files, owner } = scopeFor(c, name, false);
      if (files === undefined || (await history.get(name)) === undefined) {
        return c.json({ error: "No such session", code: BridgeErrorCode.UnknownSession }, 404);
      }
      const { q, limit, cursor } = c.req.query();
      return c.json(await files.search(sessionKey(owner, name), { q, limit, cursor }));
    } catch (error) {
      return fail(c, error);
    }
  });

  api.post("/sessions/:name/stop", async (c) => {
    try {
      const name = c.req.param("name");
      return c.json({ session: await scopeFor(c, name, true).history.stop(name) });
    } catch (error) {
      return fail(c, error);
    }
  });

  if (changes !== undefined) changesRoutes(api, { scopeFor, fail, jsonBody }, changes);
  if (pairings !== undefined) pairingRoutes(api, { scopeFor, fail, jsonBody }, pairings);
  if (uploads !== undefined) uploadRoutes(api, { scopeFor, fail, jsonBody }, uploads);
  return api;
}

/** A JSON error response for a thrown error: a `BridgeError`'s own status and code, else 500. */
export function failure(
  c: { json: (body: unknown, status: BridgeErrorStatus) => Response },
  error: unknown,
): Response {
  if (error instanceof BridgeError)
    return c.json({ error: error.message, code: error.code }, error.status);
  return c.json({ error: "Internal error", code: BridgeErrorCode.Internal }, 500);
}

/** The `limit` query parameter: a whole number from 1, capped to {@link MAX_PAGE_SIZE}. */
function pageSize(raw: string | undefined): number {
  if (raw === undefined || raw === "") return DEFAULT_PAGE_SIZE;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    throw new BridgeError(BridgeErrorCode.InvalidRequest, "`limit` must be a whole number from 1");
  }
  return Math.min(Number(raw), MAX_PAGE_SIZE);
}

/** The request's JSON object body; `{}` when it has none. */
export async function jsonBody(c: Context, usage: string): Promise<Record<string, unknown>> {
  if ((c.req.header("content-length") ?? "0") === "0" && !c.req.header("transfer-encoding")) {
    return {};
  }
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new BridgeError(BridgeErrorCode.InvalidRequest, usage);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new BridgeError(BridgeErrorCode.InvalidRequest, usage);
  }
  return body as Record<string, unknown>;
}

/** A short random session name, for `POST /api/sessions` without one. */
function randomName(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `s-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}
