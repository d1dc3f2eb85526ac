/** What a cluster node adds to the bridge's routes: its name on every response, and `/metrics`. */
import type { Handler, MiddlewareHandler } from "hono";
import { BridgeErrorCode } from "../errors.ts";
import type { Authentication } from "../http/authenticate.ts";
import type { Refuse } from "../http/refusal.ts";
import { BRIDGE_OWNER } from "../sessions/owner.ts";
import { type ClusterNode, NODE_HEADER } from "./cluster-node.ts";

/** Names the node that answered in {@link NODE_HEADER}; a forwarded response keeps the owner's. */
export function nodeHeader(cluster: ClusterNode): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (!c.res.headers.has(NODE_HEADER)) c.header(NODE_HEADER, cluster.id);
  };
}

/** `GET /metrics`, for the bridge's own token only: a ticket user learns nothing of the cluster. */
export function metricsRoute(
  cluster: ClusterNode,
  accessOf: Authentication["accessOf"],
  refuse: Refuse,
): Handler {
  return async (c) => {
    if (accessOf(c).owner !== BRIDGE_OWNER)
      return refuse(c, 403, "Metrics need the bridge's token", BridgeErrorCode.WrongToken);
    return c.body(await cluster.metrics.text(), 200, {
      "Content-Type": cluster.metrics.contentType,
    });
  };
}
