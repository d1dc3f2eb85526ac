/**
 * The session API: `GET /api/sessions` lists, `POST /api/sessions` creates (or restarts an exited
 * one), `GET /api/sessions/:name` shows one, `DELETE /api/sessions/:name` stops one gracefully.
 * Authentication and the Origin check run before these, in the bridge.
 */
import { Hono } from "hono";
import { BridgeError } from "../errors.ts";
import type { SessionRegistry } from "../sessions/session-registry.ts";

/** Request body of `POST /api/sessions`. */
export interface CreateSessionBody {
  /** The session name; a random one when omitted. */
  readonly name?: string;
}

/** The session API routes, to mount under `/api`. */
export function sessionRoutes(registry: SessionRegistry): Hono {
  const api = new Hono();

  api.get("/sessions", (c) => c.json({ sessions: registry.list() }));

  api.post("/sessions", async (c) => {
    let body: unknown = {};
    if ((c.req.header("content-length") ?? "0") !== "0" || c.req.header("transfer-encoding")) {
      try {
        body = await c.req.json();
      } catch {
        return c.json({ error: 'The body must be JSON: {"name"?: string}' }, 400);
      }
    }
    const raw =
      typeof body === "object" && body !== null ? (body as CreateSessionBody).name : undefined;
    if (raw !== undefined && typeof raw !== "string") {
      return c.json({ error: "`name` must be a string" }, 400);
    }
    const name = raw ?? randomName();
    try {
      const { session, created } = await registry.open(name);
      return c.json({ session: session.info() }, created ? 201 : 200);
    } catch (error) {
      return failure(c, error);
    }
  });

  api.get("/sessions/:name", (c) => {
    const session = registry.get(c.req.param("name"));
    if (session === undefined) return c.json({ error: "No such session" }, 404);
    return c.json({ session: session.info() });
  });

  api.delete("/sessions/:name", async (c) => {
    const info = await registry.close(c.req.param("name"));
    if (info === undefined) return c.json({ error: "No such session" }, 404);
    return c.json({ session: info });
  });

  return api;
}

/** A JSON error response for a thrown error: a `BridgeError`'s own status, else 500. */
export function failure(
  c: { json: (body: unknown, status: 400 | 404 | 500 | 503) => Response },
  error: unknown,
): Response {
  if (error instanceof BridgeError)
    return c.json({ error: error.message, code: error.code }, error.status);
  return c.json({ error: "Internal error" }, 500);
}

/** A short random session name, for `POST /api/sessions` without one. */
function randomName(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `s-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}
