/**
 * A bridge as one node of a cluster: a lease per session replaces the sessions directory's lock,
 * requests for sessions another node runs are forwarded there, `/metrics` and `/cluster/sessions`
 * are served, `/readyz` checks the lease store, and a drain lets running turns settle first.
 */
import { Hono } from "hono";
import { type ClusterNode, createClusterNode } from "../cluster/cluster-node.ts";
import { clusterSessionsRoute, metricsRoute, nodeHeader } from "../cluster/cluster-routes.ts";
import { type ClusterOptions, clusterLimits } from "../cluster/cluster-settings.ts";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";
import { type BridgeLogger, safeLog } from "../logging/logger.ts";
import { type BridgeOptions, DEFAULT_LIMITS } from "../options/bridge-options.ts";
import { defaultIndexDir } from "../security/sessions-dir.ts";
import type { SessionRegistry } from "../sessions/session-registry.ts";
import type { Topology, TopologyHost } from "./topology.ts";

/** The cluster node topology of a bridge with `cluster` options; a lost lease fences its session. */
export function clusterTopology(
  options: BridgeOptions,
  cluster: ClusterOptions,
  logger: BridgeLogger,
  host: TopologyHost,
): Topology {
  const node = clusterNode(options, cluster, logger, host);
  let drainStarted: number | undefined;
  return {
    limits: clusterLimits(cluster, DEFAULT_LIMITS.keepaliveMs),
    placement: node.placement,
    // Per node, off the share: nodes must never overwrite each other's index.
    indexDir: cluster.indexDir ?? defaultIndexDir(node.url, options.sessionsDir),
    runningElsewhere: (keys) => node.runningElsewhere(keys),
    // A node whose lease ran out writes nothing, even before its fence's timer has run.
    mayWrite: (key) => node.holds(key),
    sessionEvents: {
      onPiExit: (_session, reason) => node.metrics.piExits.inc({ reason }),
      onRelayed: (seconds) => node.metrics.relaySeconds.observe(seconds),
      // The lease names the file pi writes now, so the next node to run it resumes that one.
      onFileMoved: (key, file) => void node.placement.recordFile(key, file),
    },
    metrics: node.metrics,
    forwardedIdentity: (request) => node.forwardedIdentity(request),
    readiness: [node.readiness],
    nodeHeader: nodeHeader(node),
    nodeRoutes(accessOf, refuse) {
      const routes = new Hono();
      routes.get("/metrics", metricsRoute(node, accessOf, refuse));
      routes.get("/cluster/sessions", clusterSessionsRoute(node, accessOf, refuse));
      return routes;
    },
    forwarding: ({ refuse, auth, sockets, serve }) => ({
      http: (c, error) =>
        node.forwardHttp(c, error, refuse, auth.accessOf(c), auth.originOf(c), serve),
      socket: (c, error, protocol, access, reclaim) =>
        node.forwardSocket(c, error, refuse, sockets, protocol, access, auth.originOf(c), reclaim),
    }),
    // `/readyz` already fails and new requests are refused (the bridge is closing); running
    // turns get up to the drain timeout to settle.
    async drain(registry: SessionRegistry) {
      drainStarted = performance.now();
      safeLog(logger, { event: "drain_started", timeoutMs: node.drainTimeoutMs });
      await registry.settled(node.drainTimeoutMs);
    },
    close: () =>
      node.placement
        .close()
        .finally(() => node.close())
        .then(() => {
          const durationMs = Math.round(performance.now() - (drainStarted ?? performance.now()));
          safeLog(logger, { event: "drain_done", durationMs });
        }),
  };
}

/** The cluster node; an option it refuses is the bridge's `invalid_options`. */
function clusterNode(
  options: BridgeOptions,
  cluster: ClusterOptions,
  logger: BridgeLogger,
  host: TopologyHost,
): ClusterNode {
  try {
    return createClusterNode({
      ...cluster,
      url: options.url,
      token: options.token,
      sessionsDir: options.sessionsDir,
      logger,
      fence: (key) => host.registry().fence(key),
      fenceAll: () => host.registry().fenceAll(),
      sources: { sessionStates: () => sessionStates(host.registry()) },
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
