/**
 * `GET /healthz` and `GET /readyz` for load balancers and service managers. They need no token
 * and answer nothing but a status: `{"status":"ok"}`; `{"status":"ready"}` or, with 503,
 * `{"status":"not_ready"}`. Why a check failed goes to the log, once per change. A draining bridge
 * answers `/readyz?drain=404` with 404 instead: HAProxy's `http-check disable-on-404` then stops
 * sending it new work but keeps its open sockets, which `on-marked-down shutdown-sessions` would
 * cut for a node marked down (frozen, dead, or without Redis).
 */
import { Hono } from "hono";
import { type BridgeLogger, safeLog } from "../logging/logger.ts";
import type { ReadinessCheck } from "./readiness.ts";

/** What the health routes need from the bridge. */
export interface HealthOptions {
  /** Checks `/readyz` runs, all of which must pass. */
  readonly checks: readonly ReadinessCheck[];
  /** Whether the bridge is shutting down (then it is not ready: drain it). */
  readonly closing: () => boolean;
  readonly logger: BridgeLogger;
}

/** The health routes, to mount before authentication. */
export function healthRoutes(options: HealthOptions): Hono {
  const app = new Hono();
  let lastProblem: string | undefined;
  app.use(async (c, next) => {
    await next();
    c.header("Cache-Control", "no-store");
  });
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    const problem = options.closing()
      ? "closing: the bridge is shutting down"
      : await firstProblem(options.checks);
    if (problem !== lastProblem) {
      lastProblem = problem;
      safeLog(
        options.logger,
        problem === undefined
          ? { event: "readiness_restored" }
          : { event: "readiness_lost", problem },
      );
    }
    if (problem === undefined) return c.json({ status: "ready" });
    const draining = options.closing() && c.req.query("drain") === "404";
    return c.json({ status: "not_ready" }, draining ? 404 : 503);
  });
  return app;
}

/** The first failing check as `name: why`, or `undefined`. */
async function firstProblem(checks: readonly ReadinessCheck[]): Promise<string | undefined> {
  const results = await Promise.all(checks.map(async (check) => [check.name, await check.run()]));
  const failed = results.find(([, why]) => why !== undefined);
  return failed === undefined ? undefined : `${failed[0]}: ${failed[1]}`;
}
