/**
 * What a cluster node adds to the bridge's routes: its name on every response, `/metrics`, and
 * `/cluster/sessions` (every leased session with its owner, fence and lease age).
 */
import type { Handler, MiddlewareHandler } from "hono";
import { BridgeErrorCode } from "../errors/bridge-error.ts";
import type { Authentication } from "../http/authenticate.ts";
import type { Refuse } from "../http/refusal.ts";
import type { Access } from "../principals/access.ts";
import { BRIDGE_OWNER } from "../principals/owner.ts";
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
    if (!ownToken(accessOf(c)))
      return refuse(c, 403, "Metrics need the bridge's token", BridgeErrorCode.WrongToken);
    return c.body(await cluster.metrics.text(), 200, {
      "Content-Type": cluster.metrics.contentType,
    });
  };
}

/**
 * `GET /cluster/sessions`, for the bridge's own token only: every session leased in the cluster
 * (any node's), with its owner, fence, file and lease age, read from Redis. 503 when Redis does
 * not answer.
 */
export function clusterSessionsRoute(
  cluster: ClusterNode,
  accessOf: Authentication["accessOf"],
  refuse: Refuse,
): Handler {
  return async (c) => {
    if (!ownToken(accessOf(c)))
      return refuse(
        c,
        403,
        "The cluster's sessions need the bridge's token",
        BridgeErrorCode.WrongToken,
      );
    try {
      return c.json(await cluster.status());
    } catch {
      c.header("Retry-After", "1");
      return refuse(c, 503, "The lease store did not answer; retry", "lease_store_unreachable");
    }
  };
}

/** The static token's own access (not a ticket, not one session vouched for by another node). */
function ownToken(access: Access): boolean {
  return access.owner === BRIDGE_OWNER && !access.limited;
}
