/**
 * The changes API, beside the history API and behind the same checks: a session's checkpoints
 * (`GET …/checkpoints`), the files changed since one (`GET …/changes?since=`), one file's diff
 * (`GET …/changes/diff?path=&since=`), and, for the socket in control only, reverting one file
 * (`POST …/changes/revert`) and restoring the workspace to a checkpoint
 * (`POST …/checkpoints/:id/restore`). A caller proves control by naming its socket (`you.id` of
 * `bridge_control`) in the `X-Pi-Kit-Connection` header; nothing is undone while pi is in a run.
 */
import type { Context, Hono } from "hono";
import type { CheckpointStore } from "../checkpoints/checkpoint-store.ts";
import type { SessionCheckpoints } from "../checkpoints/session-checkpoints.ts";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";
import type { BridgeHistory } from "../history/bridge-history.ts";
import type { Access } from "../principals/access.ts";
import { sessionKey } from "../principals/owner.ts";
import type { Session } from "../sessions/session.ts";
import type { SessionRegistry } from "../sessions/session-registry.ts";
import { assertController } from "./controller-check.ts";

/** What the changes API reads: the running sessions and where their checkpoints are. */
export interface ChangesRouteOptions {
  readonly registry: SessionRegistry;
  /** `undefined`: the bridge keeps no checkpoints (every route answers 404 `checkpoints_off`). */
  readonly checkpoints: CheckpointStore | undefined;
}

/** The session routes' own checks, shared with these. */
export interface RouteChecks {
  /** The scope of a request on session `name`, when it may `change` it (throws when not). */
  readonly scopeFor: (
    c: Context,
    name: string,
    change: boolean,
  ) => Access & { readonly history: BridgeHistory };
  /** The error answer (or a cluster forward) for a thrown error. */
  readonly fail: (c: Context, error: unknown) => Response | Promise<Response>;
  /** The request's JSON object body. */
  readonly jsonBody: (c: Context, usage: string) => Promise<Record<string, unknown>>;
}

/** Adds the changes API's routes to `api` (mounted under `/api`). */
export function changesRoutes(api: Hono, checks: RouteChecks, options: ChangesRouteOptions): void {
  const { scopeFor, fail } = checks;

  /**
   * Runs `task` on session `name`'s checkpoints while nothing else starts or stops it (in
   * cluster mode: on the node that holds its lease, else the request is forwarded there). A
   * write also needs the caller's socket to be in control, and pi out of a run.
   */
  const withCheckpoints = async <T>(
    c: Context,
    write: boolean,
    task: (checkpoints: SessionCheckpoints | undefined) => Promise<T>,
  ): Promise<T> => {
    const name = c.req.param("name") as string;
    const scope = scopeFor(c, name, write);
    const store = options.checkpoints;
    if (store === undefined)
      throw new BridgeError(BridgeErrorCode.CheckpointsOff, "This bridge keeps no checkpoints");
    const key = sessionKey(scope.owner, name);
    if (options.registry.get(key) === undefined && (await scope.history.get(name)) === undefined)
      throw new BridgeError(BridgeErrorCode.UnknownSession, "No such session");
    return options.registry.exclusive(key, async (held) => {
      if (write) assertMayUndo(c, held.session);
      return task(await store.of(key));
    });
  };

  api.get("/sessions/:name/checkpoints", async (c) => {
    try {
      const checkpoints = await withCheckpoints(c, false, async (cp) => (cp ? cp.list() : []));
      return c.json({ checkpoints });
    } catch (error) {
      return fail(c, error);
    }
  });

  api.get("/sessions/:name/changes", async (c) => {
    try {
      const since = optional(c.req.query("since"));
      return c.json(await withCheckpoints(c, false, async (cp) => present(cp).changes(since)));
    } catch (error) {
      return fail(c, error);
    }
  });

  api.get("/sessions/:name/changes/diff", async (c) => {
    try {
      const path = c.req.query("path") ?? "";
      const since = optional(c.req.query("since"));
      return c.json(await withCheckpoints(c, false, async (cp) => present(cp).diff(path, since)));
    } catch (error) {
      return fail(c, error);
    }
  });

  api.post("/sessions/:name/changes/revert", async (c) => {
    try {
      const usage = 'The body must be JSON: {"path": string, "since"?: string}';
      const body = await checks.jsonBody(c, usage);
      const { path, since } = body;
      if (typeof path !== "string" || (since !== undefined && typeof since !== "string"))
        throw new BridgeError(BridgeErrorCode.InvalidRequest, usage);
      return c.json(
        await withCheckpoints(c, true, async (cp) => present(cp).revertFile(path, since)),
      );
    } catch (error) {
      return fail(c, error);
    }
  });

  api.post("/sessions/:name/checkpoints/:id/restore", async (c) => {
    try {
      const id = c.req.param("id");
      return c.json(await withCheckpoints(c, true, async (cp) => present(cp).restore(id)));
    } catch (error) {
      return fail(c, error);
    }
  });
}

/**
 * Throws unless the request names the socket in control of `session` (`not_controller`), and
 * unless pi is out of a run (`run_in_progress`: an undo under a running pi would race its tools).
 */
function assertMayUndo(c: Context, session: Session | undefined): void {
  assertController(c, session, "undo");
  if (session?.inRun)
    throw new BridgeError(
      BridgeErrorCode.RunInProgress,
      "pi is in a run: undo once it ends (or stop it first)",
    );
}

function present(checkpoints: SessionCheckpoints | undefined): SessionCheckpoints {
  if (checkpoints === undefined)
    throw new BridgeError(BridgeErrorCode.UnknownCheckpoint, "The session has no checkpoint yet");
  return checkpoints;
}

/** A query parameter, `undefined` when absent or empty. */
function optional(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}
