/**
 * The upload API, beside the history API and behind the same checks: the limits and what a
 * session used (`GET …/uploads`), and, for the socket in control only (named in the
 * `X-Pi-Kit-Connection` header, as for reverts), declaring an upload (`POST …/uploads`) and
 * sending its bytes in order (`PUT …/uploads/:id?offset=`); `GET …/uploads/:id` says where one is,
 * to resume; `DELETE …/uploads/:id` removes one (a cancelled upload holds no place). Unlike an undo, an upload may come while pi is in a run. Nothing is ever served back.
 */
import type { Context, Hono } from "hono";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";
import { type SessionKey, sessionKey } from "../principals/owner.ts";
import type { SessionRegistry } from "../sessions/session-registry.ts";
import { type SessionUploads, UploadOffsetError } from "../uploads/session-uploads.ts";
import type { RouteChecks } from "./changes-routes.ts";
import { assertController } from "./controller-check.ts";

/** What the upload API needs: the running sessions and their uploads. */
export interface UploadRouteOptions {
  readonly registry: SessionRegistry;
  /** `undefined`: the bridge takes no uploads (every route answers 404 `uploads_off`). */
  readonly uploads: SessionUploads | undefined;
}

/** Adds the upload API's routes to `api` (mounted under `/api`). */
export function uploadRoutes(api: Hono, checks: RouteChecks, options: UploadRouteOptions): void {
  const { scopeFor } = checks;
  const fail = (c: Context, error: unknown): Response | Promise<Response> =>
    error instanceof UploadOffsetError
      ? c.json({ error: error.message, code: error.code, ...error.upload }, 409)
      : checks.fail(c, error);

  /**
   * The uploads and key of the request's session, checked on the node that holds its lease (in
   * cluster mode; else the request is forwarded there); a `write` needs the socket in control.
   */
  const session = async (
    c: Context,
    write: boolean,
  ): Promise<{ uploads: SessionUploads; key: SessionKey }> => {
    const name = c.req.param("name") as string;
    const scope = scopeFor(c, name, write);
    const uploads = options.uploads;
    if (uploads === undefined)
      throw new BridgeError(BridgeErrorCode.UploadsOff, "This bridge takes no uploads");
    const key = sessionKey(scope.owner, name);
    if (options.registry.get(key) === undefined && (await scope.history.get(name)) === undefined)
      throw new BridgeError(BridgeErrorCode.UnknownSession, "No such session");
    await options.registry.exclusive(key, async (held) => {
      if (write) assertController(c, held.session, "upload");
    });
    return { uploads, key };
  };

  api.get("/sessions/:name/uploads", async (c) => {
    try {
      const { uploads, key } = await session(c, false);
      return c.json(await uploads.quota(key));
    } catch (error) {
      return fail(c, error);
    }
  });

  api.post("/sessions/:name/uploads", async (c) => {
    try {
      const body = await checks.jsonBody(c, 'The body must be JSON: {"name": string, "size": n}');
      const { uploads, key } = await session(c, true);
      return c.json(await uploads.declare(key, body), 201);
    } catch (error) {
      return fail(c, error);
    }
  });

  api.get("/sessions/:name/uploads/:id", async (c) => {
    try {
      const { uploads, key } = await session(c, false);
      return c.json(await uploads.status(key, c.req.param("id")));
    } catch (error) {
      return fail(c, error);
    }
  });

  api.delete("/sessions/:name/uploads/:id", async (c) => {
    try {
      const { uploads, key } = await session(c, true);
      await uploads.remove(key, c.req.param("id"));
      return c.body(null, 204);
    } catch (error) {
      return fail(c, error);
    }
  });

  api.put("/sessions/:name/uploads/:id", async (c) => {
    try {
      const { uploads, key } = await session(c, true);
      const id = c.req.param("id");
      const length = c.req.header("content-length");
      return c.json(await uploads.append(key, id, c.req.query("offset"), length, c.req.raw.body));
    } catch (error) {
      return fail(c, error);
    }
  });
}
