/**
 * A bridge on its own: it holds its sessions directory's lock and so may run every session in
 * it. No other node exists to forward to, vouch for callers, or drain for.
 */
import { Hono } from "hono";
import { type BridgeLogger, safeLog } from "../logging/logger.ts";
import type { BridgeOptions } from "../options/bridge-options.ts";
import { SessionsDirPlacement } from "../placement/sessions-dir-placement.ts";
import type { Topology, TopologyHost } from "./topology.ts";

/**
 * The single-node topology; takes the sessions directory's lock. Another bridge that takes it
 * over (this one was frozen past the lock's staleness) closes this one: its pi processes must
 * stop at once.
 */
export function singleNodeTopology(
  options: BridgeOptions,
  logger: BridgeLogger,
  host: TopologyHost,
): Topology {
  const placement = new SessionsDirPlacement(options.sessionsDir, {
    ...(options.url === undefined ? {} : { url: options.url }),
    onLost: (holder) => {
      safeLog(logger, {
        event: "sessions_dir_lost",
        ...(holder === undefined ? {} : { pid: holder.pid }),
      });
      host.close();
    },
  });
  return {
    limits: {},
    placement,
    indexDir: undefined,
    runningElsewhere: undefined,
    mayWrite: undefined,
    sessionEvents: {},
    metrics: undefined,
    forwardedIdentity: undefined,
    readiness: [],
    nodeHeader: (_c, next) => next(),
    nodeRoutes: () => new Hono(),
    forwarding: () => ({ http: undefined, socket: undefined }),
    drain: () => Promise.resolve(),
    close: () => placement.close(),
  };
}
