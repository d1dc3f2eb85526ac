/**
 * `createBridge`: the Hono app (session API plus `GET /sessions/:name/ws`) and the lifecycle of
 * the pi processes behind it. Runtime-independent: the WebSocket upgrade comes from an adapter.
 */

import { resolve } from "node:path";
import { CONTROLLER_CONNECTION_HEADER } from "@pi-kit/protocol/bridge";
import { Hono } from "hono";
import { cors } from "hono/cors";
import { type BridgeLimits, type BridgeOptions, DEFAULT_LIMITS } from "./bridge-options.ts";
import { CheckpointStore } from "./checkpoints/checkpoint-store.ts";
import { type ClusterNode, createClusterNode } from "./cluster/cluster-node.ts";
import { clusterSessionsRoute, metricsRoute, nodeHeader } from "./cluster/cluster-routes.ts";
import { clusterLimits } from "./cluster/cluster-settings.ts";
import { BridgeError, BridgeErrorCode } from "./errors.ts";
import { SessionFiles } from "./files/session-files.ts";
import { healthRoutes } from "./health/health-routes.ts";
import { type ReadinessCheck, spawnCheck, writableCheck } from "./health/readiness.ts";
import type { BridgeHistory } from "./history/bridge-history.ts";
import { authentication } from "./http/authenticate.ts";
import { guardedUpgrade } from "./http/guarded-upgrade.ts";
import { redeemRoute } from "./http/pairing-routes.ts";
import { createRefusal } from "./http/refusal.ts";
import { failure, jsonBody, sessionRoutes } from "./http/routes.ts";
import { upgradeRoute } from "./http/upgrade-route.ts";
import { type BridgeLogger, jsonLogger, safeLog } from "./logger.ts";
import { PrincipalStores } from "./ownership/principal-stores.ts";
import type { SessionOwnership } from "./ownership/session-ownership.ts";
import { SessionsDirOwnership } from "./ownership/sessions-dir-ownership.ts";
import { createSandbox, type Sandbox } from "./sandbox/create-sandbox.ts";
import { createCommandPolicy } from "./security/command-policy.ts";
import { createOriginCheck } from "./security/origin.ts";
import { Pairings } from "./security/pairing.ts";
import { defaultIndexDir, prepareSessionsDir } from "./security/sessions-dir.ts";
import { createTicketVerifier } from "./security/tickets.ts";
import { assertUsableToken } from "./security/token.ts";
import { ControlMemory } from "./sessions/control-memory.ts";
import { BRIDGE_OWNER, userOwner } from "./sessions/owner.ts";
import { withPermissions } from "./sessions/permission-launch.ts";
import { placedSpawn } from "./sessions/placed-spawn.ts";
import type { RegistrySettings, SessionRegistry } from "./sessions/session-registry.ts";
import { Workspaces } from "./sessions/workspaces.ts";
import { SessionUploads } from "./uploads/session-uploads.ts";
import type { WebSocketRuntime } from "./ws/runtime.ts";

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
  const limits: Required<BridgeLimits> = {
    ...DEFAULT_LIMITS,
    ...clusterLimits(options.cluster, DEFAULT_LIMITS.keepaliveMs),
    ...options.limits,
  };
  const logger = options.logger ?? jsonLogger();
  const policy = createCommandPolicy(options.policy);
  const originAllowed = createOriginCheck(options.origins ?? []);
  const tickets = options.tickets === undefined ? undefined : createTicketVerifier(options.tickets);
  const cluster =
    options.cluster === undefined ? undefined : clusterNode(options, logger, () => principals);
  // Last of the checks, so a refused option leaves no lock behind; first of anything on disk.
  // In cluster mode a lease per session replaces the directory's lock.
  const ownership =
    cluster?.ownership ?? directoryOwnership(options, logger, () => void bridge.close());
  const spawn = placedSpawn(options.sessionsDir, workspaces, sandbox, options.spawn);
  const checkpoints =
    options.checkpoints === false
      ? undefined
      : new CheckpointStore({
          ...options.checkpoints,
          sessionsDir: options.sessionsDir,
          // Where each pi works: its own workspace, or the one every session shares.
          workspaceOf: async (key) => workspaces?.of(key) ?? resolve(options.pi.cwd ?? "."),
          // A node whose lease ran out writes nothing, even before its fence's timer has run.
          ...(cluster === undefined ? {} : { mayWrite: (key) => cluster.holds(key) }),
        });
  const principals: PrincipalStores = new PrincipalStores({
    registry: {
      ...registrySettings(options, limits, logger, ownership, spawn, cluster),
      checkpoints,
    },
    logger,
    workspaces,
    // Per node, off the share: nodes must never overwrite each other's index.
    indexDir:
      cluster === undefined
        ? undefined
        : (options.cluster?.indexDir ?? defaultIndexDir(cluster.url, options.sessionsDir)),
    runningElsewhere: cluster?.runningElsewhere,
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
  const refuse = createRefusal(runtime, logger, cluster?.metrics);
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
    ...(cluster === undefined ? {} : { forwardedIdentity: cluster.forwardedIdentity }),
  });

  const app = new Hono();
  if (cluster !== undefined) app.use("*", nodeHeader(cluster));
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
      checks: readinessChecks(options, sandbox, workspaces, cluster),
      closing: () => closing !== undefined,
      logger,
    }),
  );
  // Before authentication too: the pairing ticket in the body is the credential.
  app.post("/api/pair", redeemRoute(pairings, originAllowed, jsonBody, failure));
  app.use("*", auth.middleware);
  if (cluster !== undefined) {
    app.get("/metrics", metricsRoute(cluster, auth.accessOf, refuse));
    app.get("/cluster/sessions", clusterSessionsRoute(cluster, auth.accessOf, refuse));
  }
  app.route(
    "/api",
    sessionRoutes(
      (c) => {
        const access = auth.accessOf(c);
        return { ...access, history: principals.historyOf(access.owner), files };
      },
      logger,
      cluster === undefined
        ? undefined
        : (c, error) =>
            cluster.forwardHttp(c, error, refuse, auth.accessOf(c), auth.originOf(c), (request) =>
              Promise.resolve(app.fetch(request)),
            ),
      cluster?.metrics,
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
      ...(cluster === undefined
        ? {}
        : {
            forward: (c, error, protocol, access, reclaim) =>
              cluster.forwardSocket(
                c,
                error,
                refuse,
                sockets,
                protocol,
                access,
                auth.originOf(c),
                reclaim,
              ),
          }),
    }),
  );

  const bridge: Bridge = {
    app,
    sessions: registry,
    history: principals.historyOf(BRIDGE_OWNER),
    historyOf: (user) => principals.historyOf(userOwner(user)),
    limits,
    close() {
      const started = performance.now();
      closing ??= drain(cluster, registry, logger)
        .then(() => registry.closeAll())
        // A checkpoint or revert still running finishes before the storage is let go.
        .then(() => checkpoints?.settled())
        .then(() => principals.close())
        .finally(() => files.close())
        .finally(() => ownership.close())
        .finally(() => cluster?.close())
        .then(() => {
          if (cluster !== undefined) {
            const durationMs = Math.round(performance.now() - started);
            safeLog(logger, { event: "drain_done", durationMs });
          }
          safeLog(logger, { event: "bridge_closed" });
        });
      return closing;
    },
  };
  return bridge;
}

/**
 * The sessions directory's lock. Another bridge that takes it over (this one was frozen past the
 * lock's staleness) calls `onLost`: this bridge's pi processes must stop at once.
 */
function directoryOwnership(
  options: BridgeOptions,
  logger: BridgeLogger,
  onLost: () => void,
): SessionsDirOwnership {
  return new SessionsDirOwnership(options.sessionsDir, {
    ...(options.url === undefined ? {} : { url: options.url }),
    onLost: (holder) => {
      safeLog(logger, {
        event: "sessions_dir_lost",
        ...(holder === undefined ? {} : { pid: holder.pid }),
      });
      onLost();
    },
  });
}

/** How the registry starts and keeps sessions; a cluster node also counts and records in it. */
function registrySettings(
  options: BridgeOptions,
  limits: Required<BridgeLimits>,
  logger: BridgeLogger,
  ownership: SessionOwnership,
  spawn: RegistrySettings["spawn"],
  cluster: ClusterNode | undefined,
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
    ownership,
    controlMemory: (key) => new ControlMemory(options.sessionsDir, key),
    controlReclaimMs: limits.controlReclaimMs,
    ...(cluster === undefined
      ? {}
      : {
          onPiExit: (_session, reason) => cluster.metrics.piExits.inc({ reason }),
          onRelayed: (seconds) => cluster.metrics.relaySeconds.observe(seconds),
          // The lease names the file pi writes now, so the next owner resumes that one.
          onFileMoved: (key, file) => void cluster.ownership.recordFile(key, file),
        }),
  };
}

/** What `/readyz` checks: pi (and the sandbox) can start, the directories take writes, the cluster. */
function readinessChecks(
  options: BridgeOptions,
  sandbox: Sandbox | undefined,
  workspaces: Workspaces | undefined,
  cluster: ClusterNode | undefined,
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
    ...(cluster === undefined ? [] : [cluster.readiness]),
  ];
}

/** The cluster node of a bridge with `cluster` options; a lost lease fences its session. */
function clusterNode(
  options: BridgeOptions,
  logger: BridgeLogger,
  principals: () => PrincipalStores,
): ClusterNode {
  const cluster = options.cluster as NonNullable<BridgeOptions["cluster"]>;
  try {
    return createClusterNode({
      ...cluster,
      url: options.url,
      token: options.token,
      sessionsDir: options.sessionsDir,
      logger,
      fence: (key) => principals().registry.fence(key),
      sources: { sessionStates: () => sessionStates(principals().registry) },
    });
  } catch (error) {
    throw new BridgeError(BridgeErrorCode.InvalidOptions, (error as Error).message);
  }
}

/** Sessions by state, for `/metrics`. */
function sessionStates(registry: SessionRegistry): Record<string, number> {
  const states: Record<string, number> = { running: 0, idle: 0, stopping: 0 };
  for (const session of registry.all()) {
    const info = session.info();
    const state = info.state === "running" ? (info.streaming ? "running" : "idle") : info.state;
    states[state] = (states[state] ?? 0) + 1;
  }
  return states;
}

/**
 * A cluster node's drain before it stops: `/readyz` already fails and new requests are refused
 * (the bridge is closing); running turns get up to the drain timeout to settle.
 */
async function drain(
  cluster: ClusterNode | undefined,
  registry: SessionRegistry,
  logger: BridgeLogger,
): Promise<void> {
  if (cluster === undefined) return;
  safeLog(logger, { event: "drain_started", timeoutMs: cluster.drainTimeoutMs });
  await registry.settled(cluster.drainTimeoutMs);
}
