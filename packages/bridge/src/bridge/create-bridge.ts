/**
 * `createBridge`: the Hono app (session API plus `GET /sessions/:name/ws`) and the lifecycle of
 * the pi processes behind it. Runtime-independent: the WebSocket upgrade comes from an adapter.
 */

import { resolve } from "node:path";
import { CONTROLLER_CONNECTION_HEADER } from "@pi-kit/protocol/bridge";
import { Hono } from "hono";
import { cors } from "hono/cors";
import { CheckpointStore } from "../checkpoints/checkpoint-store.ts";
import { SessionFiles } from "../files/session-files.ts";
import { healthRoutes } from "../health/health-routes.ts";
import { type ReadinessCheck, spawnCheck, writableCheck } from "../health/readiness.ts";
import type { BridgeHistory } from "../history/bridge-history.ts";
import { authentication } from "../http/authenticate.ts";
import { guardedUpgrade } from "../http/guarded-upgrade.ts";
import { redeemRoute } from "../http/pairing-routes.ts";
import { createRefusal } from "../http/refusal.ts";
import { failure, jsonBody, sessionRoutes } from "../http/routes.ts";
import { upgradeRoute } from "../http/upgrade-route.ts";
import { type BridgeLogger, jsonLogger, safeLog } from "../logging/logger.ts";
import {
  type BridgeLimits,
  type BridgeOptions,
  DEFAULT_LIMITS,
} from "../options/bridge-options.ts";
import { BRIDGE_OWNER, userOwner } from "../principals/owner.ts";
import { createSandbox, type Sandbox } from "../sandbox/create-sandbox.ts";
import { createCommandPolicy } from "../security/command-policy.ts";
import { createOriginCheck } from "../security/origin.ts";
import { Pairings } from "../security/pairing.ts";
import { prepareSessionsDir } from "../security/sessions-dir.ts";
import { createTicketVerifier } from "../security/tickets.ts";
import { assertUsableToken } from "../security/token.ts";
import { ControlMemory } from "../sessions/control-memory.ts";
import { withPermissions } from "../sessions/permission-launch.ts";
import { placedSpawn } from "../sessions/placed-spawn.ts";
import type { RegistrySettings, SessionRegistry } from "../sessions/session-registry.ts";
import { Workspaces } from "../sessions/workspaces.ts";
import { createTopology } from "../topology/create-topology.ts";
import type { Topology } from "../topology/topology.ts";
import { SessionUploads } from "../uploads/session-uploads.ts";
import type { WebSocketRuntime } from "../ws/runtime.ts";
import { PrincipalStores } from "./principal-stores.ts";

/** A bridge: mount `app` in any Hono server, and `close()` it on shutdown. */
export interface Bridge {
  /** The routes: `/api/sessions…`, `/sessions/:name/ws`, and `/healthz` and `/readyz` (no token). */
  readonly app: Hono;
  /** The running sessions, for inspection and direct control. */
  readonly sessions: SessionRegistry;
  /** Every session of the bridge's own (static token), running or not: what the HTTP API serves it. */
  readonly history: BridgeHistory;
  /** The history of ticket user `user` (their `sub`): their sessions only. */
  historyOf(user: string): BridgeHistory;
  /** The limits in force, defaults filled in. */
  readonly limits: Readonly<Required<BridgeLimits>>;
  /** Refuses new work, closes every socket (1001), stops every pi gracefully (stdin first) and saves the history's index. */
  close(): Promise<void>;
}

/**
 * Creates a bridge on a runtime's WebSocket support. Most callers use `serveBridge` from
 * `@pi-kit/bridge/node`, `/deno` or `/bun`, which also start the server.
 *
 * @example
 * ```ts
 * import { createBridge, generateToken } from "@pi-kit/bridge";
 * import { denoWebSocket } from "@pi-kit/bridge/deno";
 * const bridge = createBridge(
 *   { pi: { command: "pi", args: ["--mode", "rpc"] }, token: generateToken(), sessionsDir: "./sessions" },
 *   denoWebSocket,
 * );
 * Deno.serve({ hostname: "127.0.0.1", port: 8787 }, bridge.app.fetch);
 * ```
 */
export function createBridge(options: BridgeOptions, runtime: WebSocketRuntime): Bridge {
  assertUsableToken(options.token);
  prepareSessionsDir(options.sessionsDir);
  const workspaces =
    options.workspacesDir === undefined ? undefined : new Workspaces(options.workspacesDir);
  const sandbox = createSandbox(options.sandbox, [
    options.sessionsDir,
    ...(workspaces === undefined ? [] : [workspaces.dir]),
  ]);
  const logger = options.logger ?? jsonLogger();
  const policy = createCommandPolicy(options.policy);
  const originAllowed = createOriginCheck(options.origins ?? []);
  const tickets = options.tickets === undefined ? undefined : createTicketVerifier(options.tickets);
  // Last of the checks, so a refused option leaves no lock behind; first of anything on disk.
  const topology = createTopology(options, logger, {
    registry: () => principals.registry,
    close: () => void bridge.close(),
  });
  const limits: Required<BridgeLimits> = {
    ...DEFAULT_LIMITS,
    ...topology.limits,
    ...options.limits,
  };
  const spawn = placedSpawn(options.sessionsDir, workspaces, sandbox, options.spawn);
  const checkpoints =
    options.checkpoints === false
      ? undefined
      : new CheckpointStore({
          ...options.checkpoints,
          sessionsDir: options.sessionsDir,
          // Where each pi works: its own workspace, or the one every session shares.
          workspaceOf: async (key) => workspaces?.of(key) ?? resolve(options.pi.cwd ?? "."),
          mayWrite: topology.mayWrite,
        });
  const principals: PrincipalStores = new PrincipalStores({
    registry: { ...registrySettings(options, limits, logger, topology, spawn), checkpoints },
    logger,
    workspaces,
    indexDir: topology.indexDir,
    runningElsewhere: topology.runningElsewhere,
  });
  const registry = principals.registry;
  const files = new SessionFiles(workspaces, options.pi.cwd ?? process.cwd());
  const uploads =
    options.uploads === false
      ? undefined
      : new SessionUploads(
          options.uploads ?? {},
          async (key) => workspaces?.of(key) ?? resolve(options.pi.cwd ?? "."),
        );
  let closing: Promise<void> | undefined;
  const refuse = createRefusal(runtime, logger, topology.metrics);
  // Everything past here upgrades through this: a runtime's failed handshake is a refusal, not a 500.
  const sockets = guardedUpgrade(runtime, refuse);
  const pairings = new Pairings(options.pairing);
  const auth = authentication({
    token: options.token,
    tickets,
    pairings,
    originAllowed,
    closing: () => closing !== undefined,
    refuse,
    forwardedIdentity: topology.forwardedIdentity,
  });

  const app = new Hono();
  const forward = topology.forwarding({
    refuse,
    auth,
    sockets,
    serve: (request) => Promise.resolve(app.fetch(request)),
  });
  app.use("*", topology.nodeHeader);
  // Preflights carry no credentials, so CORS answers them before the token check.
  app.use(
    "/api/*",
    cors({
      origin: (origin) => (originAllowed(origin) ? origin : null),
      allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
      allowHeaders: ["Authorization", "Content-Type", CONTROLLER_CONNECTION_HEADER],
      maxAge: 600,
    }),
  );
  // Before authentication: load balancers probe without a token, and learn nothing but a status.
  app.route(
    "/",
    healthRoutes({
      checks: readinessChecks(options, sandbox, workspaces, topology),
      closing: () => closing !== undefined,
      logger,
    }),
  );
  // Before authentication too: the pairing ticket in the body is the credential.
  app.post("/api/pair", redeemRoute(pairings, originAllowed, jsonBody, failure));
  app.use("*", auth.middleware);
  app.route("/", topology.nodeRoutes(auth.accessOf, refuse));
  app.route(
    "/api",
    sessionRoutes(
      (c) => {
        const access = auth.accessOf(c);
        return { ...access, history: principals.historyOf(access.owner), files };
      },
      logger,
      forward.http,
      topology.metrics,
      { registry, checkpoints },
      pairings,
      { registry, uploads },
    ),
  );
  app.get(
    "/sessions/:name/ws",
    upgradeRoute({
      registry,
      historyOf: (owner) => principals.historyOf(owner),
      accessOf: auth.accessOf,
      originOf: auth.originOf,
      autoCreate: options.autoCreate !== false,
      runtime: sockets,
      policy,
      limits,
      logger,
      refuse,
      forward: forward.socket,
    }),
  );

  const bridge: Bridge = {
    app,
    sessions: registry,
    history: principals.historyOf(BRIDGE_OWNER),
    historyOf: (user) => principals.historyOf(userOwner(user)),
    limits,
    close() {
      closing ??= topology
        .drain(registry)
        .then(() => registry.closeAll())
        // A checkpoint or revert still running finishes before the storage is let go.
        .then(() => checkpoints?.settled())
        .then(() => principals.close())
        .finally(() => files.close())
        .finally(() => topology.close())
        .then(() => safeLog(logger, { event: "bridge_closed" }));
      return closing;
    },
  };
  return bridge;
}

/** How the registry starts and keeps sessions, and what it tells the topology of them. */
function registrySettings(
  options: BridgeOptions,
  limits: Required<BridgeLimits>,
  logger: BridgeLogger,
  topology: Topology,
  spawn: RegistrySettings["spawn"],
): RegistrySettings {
  return {
    sessionsDir: options.sessionsDir,
    maxSessions: limits.maxSessions,
    maxSessionsPerUser: limits.maxSessionsPerUser,
    graceMs: limits.graceMs,
    idleMs: limits.idleMs,
    pi: withPermissions(options.pi, options.permissions),
    sessionArgs: options.sessionArgs ?? ((dir) => ["--session-dir", dir]),
    spawn,
    highWaterMark: limits.highWaterMark,
    maxPendingDialogs: limits.maxPendingDialogs,
    maxStdinBytes: limits.maxStdinBytes,
    stopTimeouts: options.stopTimeouts,
    logger,
    placement: topology.placement,
    controlMemory: (key) => new ControlMemory(options.sessionsDir, key),
    controlReclaimMs: limits.controlReclaimMs,
    ...topology.sessionEvents,
  };
}

/** What `/readyz` checks: pi (and the sandbox) can start, the directories take writes, the topology's own. */
function readinessChecks(
  options: BridgeOptions,
  sandbox: Sandbox | undefined,
  workspaces: Workspaces | undefined,
  topology: Topology,
): ReadinessCheck[] {
  const pi =
    sandbox === undefined
      ? [options.pi]
      : [options.pi, { ...options.pi, command: sandbox.command }];
  return [
    spawnCheck(pi),
    writableCheck(options.sessionsDir),
    ...(workspaces === undefined
      ? []
      : [writableCheck(workspaces.dir, "workspaces_dir", "workspaces directory")]),
    ...topology.readiness,
  ];
}
