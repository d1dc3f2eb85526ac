/**
 * One bridge of a cluster: its node id and URL, its lease store, keeper and placement, its
 * metrics, the `/readyz` check of the store, and what it does with a request for a session
 * another node runs (forward it there). The cluster topology (`topology/cluster-topology.ts`)
 * builds one when the bridge's `cluster` option is set.
 */
import type { PROTOCOL_V1 } from "@pi-kit/protocol/bridge";
import type { Context } from "hono";
import type { ReadinessCheck } from "../health/readiness.ts";
import type { Refuse } from "../http/refusal.ts";
import { type BridgeLogger, safeLog } from "../logging/logger.ts";
import {
  type BridgeMetrics,
  createBridgeMetrics,
  type MetricsSources,
} from "../metrics/bridge-metrics.ts";
import {
  type ClusterRefusalError,
  SessionOwnedElsewhereError,
} from "../placement/owned-elsewhere.ts";
import type { Access, ForwardedIdentity } from "../principals/access.ts";
import type { SessionKey } from "../principals/owner.ts";
import type { WebSocketRuntime } from "../ws/runtime.ts";
import {
  type ClusterOptions,
  clusterSettingsProblem,
  DEFAULT_LEASE_TTL_MS,
  redactedUrl,
} from "./cluster-settings.ts";
import {
  connectOwner,
  FORWARDED_BY,
  forwardRequest,
  type OwnerLink,
  type OwnerSocketConstructor,
  OwnerSocketError,
  ownerUrl,
} from "./forward.ts";
import { IDENTITY_HEADER, IDENTITY_QUERY, identitySigner } from "./forwarded-identity.ts";
import { type LeaseEnd, leaseEnd } from "./lease-end.ts";
import { LeaseKeeper } from "./lease-keeper.ts";
import { LeasePlacement } from "./lease-placement.ts";
import type { LeaseStore } from "./lease-store.ts";
import { openRedisLeaseStore } from "./redis-lease-store.ts";

/** The response header naming the node that answered. */
export const NODE_HEADER = "Pi-Kit-Node";
/** The query parameter that marks a forwarded socket (a socket handshake carries no custom header). */
const FORWARDED_QUERY = "pi_kit_forwarded_by";
/** How long a forward waits for an owner's socket when no lease end bounds the wait. */
const OWNER_ANSWER_MS = 5_000;
/** Defaults of {@link ClusterOptions}. */
const DEFAULT_DRAIN_MS = 30_000;

/** What a cluster node needs from the bridge that makes it. */
export interface ClusterNodeOptions extends ClusterOptions {
  /** Where this bridge listens (the default node URL). */
  readonly url?: string | undefined;
  /** The shared sessions directory. */
  readonly sessionsDir: string;
  readonly logger: BridgeLogger;
  /** Kills session `key`'s pi and closes its sockets (1012): its lease is lost. */
  readonly fence: (key: SessionKey) => void;
  /** Kills every session's pi and closes their sockets (1012): this node's life ended. */
  readonly fenceAll: () => void;
  /** The static token every node shares: the key of the identities nodes vouch for. */
  readonly token: string;
  /** The live figures `/metrics` reads. */
  readonly sources?: MetricsSources;
  /** A lease store to use instead of connecting to `redisUrl` (tests). */
  readonly store?: LeaseStore;
}

/** A cluster bridge's part of the cluster. */
export interface ClusterNode {
  /** This process's node id, in `Pi-Kit-Node` and in its lease records. */
  readonly id: string;
  /** Its internal URL, where other nodes forward. */
  readonly url: string;
  readonly placement: LeasePlacement;
  readonly metrics: BridgeMetrics;
  /** How long a drain lets running turns settle. */
  readonly drainTimeoutMs: number;
  /** `/readyz`'s check: the lease store answers and the keeper renews in time. */
  readonly readiness: ReadinessCheck;
  /** Whether this node holds session `key`'s lease, deadline not passed (see `LeaseKeeper.holds`). */
  holds(key: SessionKey): boolean;
  /** Sessions of `keys` held by another node now. */
  runningElsewhere(keys: readonly SessionKey[]): Promise<Set<SessionKey>>;
  /** Every session leased in the cluster now, for operators (`GET /cluster/sessions`). */
  status(): Promise<ClusterStatus>;
  /**
   * The identity another node vouches for on a request it forwarded here: `undefined` when the
   * request carries none, `null` when the one it carries does not verify.
   */
  forwardedIdentity(request: Request): Promise<ForwardedIdentity | null | undefined>;
  /**
   * The answer to an HTTP API request refused with `error`: forwarded to the owner with the
   * caller's `access` and `origin` vouched for, or a 503. An owner that does not answer before
   * its lease runs out loses the request to `reclaim`, which serves it again here (marked
   * forwarded, so it is forwarded no further).
   */
  forwardHttp(
    c: Context,
    error: ClusterRefusalError,
    refuse: Refuse,
    access: Access,
    origin: string | undefined,
    reclaim?: (request: Request) => Promise<Response>,
  ): Promise<Response>;
  /**
   * The answer to a socket refused with `error`: relayed to the owner's socket, or closed 1013.
   * An owner that does not answer before its lease runs out loses the socket to `reclaim`,
   * which serves it here (the claim takes the expired lease over).
   */
  forwardSocket(
    c: Context,
    error: ClusterRefusalError,
    refuse: Refuse,
    runtime: WebSocketRuntime,
    protocol: typeof PROTOCOL_V1 | undefined,
    access: Access,
    origin: string | undefined,
    reclaim?: () => Promise<Response>,
  ): Promise<Response>;
  /** Closes the store (after the placement released every lease). */
  close(): Promise<void>;
}

/** One leased session, as `GET /cluster/sessions` lists it. */
export interface LeasedSession {
  /** The session key: its name, or `_users/<user>/<name>` for a ticket user's. */
  readonly session: string;
  /** The node id holding the lease, and its internal URL. */
  readonly node: string;
  readonly url: string;
  /** The lease's fence: grows on every acquire; the storage fence renames files with it. */
  readonly fence: number;
  /** The session file the lease names (relative to the sessions directory), if any. */
  readonly file?: string;
  /** How long ago the holder acquired it, in ms (by this node's clock against Redis's). */
  readonly ageMs?: number;
  /** How long it lasts unless renewed, in ms. */
  readonly expiresInMs: number;
}

/** What `GET /cluster/sessions` answers. */
export interface ClusterStatus {
  /** The node that answered. */
  readonly node: string;
  /** The lease TTL, in ms. */
  readonly leaseTtlMs: number;
  readonly sessions: readonly LeasedSession[];
}

/** Creates this bridge's cluster node; the store connects in the background. */
export function createClusterNode(options: ClusterNodeOptions): ClusterNode {
  const problem = clusterSettingsProblem(options);
  if (problem !== undefined) throw new Error(problem);
  const url = options.nodeUrl ?? options.url;
  if (url === undefined)
    throw new Error("Cluster mode needs the node's URL: cluster.nodeUrl (--node-url) or url");
  const id = `${new URL(url).host}-${randomHex(4)}`;
  const ttlMs = options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
  const { logger } = options;
  const opened =
    options.store === undefined
      ? openRedisLeaseStore(options.redisUrl, { ttlMs, ...storeLog(options.redisUrl, logger) })
      : undefined;
  // The keeper's pings and /readyz report a failed connection; node-redis keeps reconnecting.
  opened?.connected.catch(() => {});
  const store = options.store ?? (opened as NonNullable<typeof opened>).store;
  let placement: LeasePlacement | undefined;
  /** The sockets this node relays to other nodes now. */
  const relays = new Set<OwnerLink>();
  const keeper = new LeaseKeeper(store, {
    node: id,
    onLost: (key, reason) => {
      const sessionKey = key as SessionKey;
      placement?.lost(sessionKey);
      metrics.leasesLost.inc({ reason });
      safeLog(logger, { event: "lease_lost", session: key, reason });
      options.fence(sessionKey);
    },
    // Nothing of a life that ended may serve on: a session still starting under it included.
    onLifeEnded: () => {
      safeLog(logger, { event: "node_life_ended", relays: relays.size });
      options.fenceAll();
      // Its relays go too: the clients reconnect, and reach each session's owner as it is now.
      for (const link of relays) link.close();
      relays.clear();
    },
    onReachability: (reachable) => safeLog(logger, { event: "lease_store_reachable", reachable }),
  });
  const metrics = createBridgeMetrics({
    ...options.sources,
    leasesHeld: () => keeper.leases.size,
    leaseStoreUp: () => keeper.reachable,
  });
  placement = new LeasePlacement({
    store,
    keeper,
    node: id,
    url,
    sessionsDir: options.sessionsDir,
    logger,
    metrics,
    ...(opened === undefined ? {} : { connected: opened.connected }),
  });
  const refused = (c: Context, error: ClusterRefusalError, refuse: Refuse) => {
    metrics.refusals.inc({ code: error.code });
    c.header("Retry-After", "1");
    return refuse(c, 503, error.message, error.code);
  };
  const signer = identitySigner(options.token);
  const vouch = (c: Context, access: Access, origin: string | undefined, name: string) =>
    signer.sign(
      {
        owner: access.owner,
        name,
        readOnly: access.readOnly,
        ...(access.expiresAt === undefined ? {} : { expiresAt: access.expiresAt }),
        ...(origin === undefined ? {} : { origin }),
      },
      c.req.method,
      new URL(c.req.url).pathname,
    );
  const forwarded = (key: string, kind: "http" | "websocket", to: string, outcome: string) => {
    metrics.forwards.inc({ kind, outcome });
    safeLog(logger, { event: "forwarded", session: key, kind, to, outcome });
  };
  return {
    id,
    url,
    placement,
    metrics,
    holds: (key) => keeper.holds(key),
    drainTimeoutMs: options.drainTimeoutMs ?? DEFAULT_DRAIN_MS,
    readiness: {
      name: "lease_store",
      async run() {
        if (!keeper.reachable) return "the lease store does not renew in time";
        return store.ping().then(
          () => undefined,
          () => "the lease store does not answer",
        );
      },
    },
    async runningElsewhere(keys) {
      const held = await store.readMany(keys);
      return new Set(
        [...held].filter(([, lease]) => lease.node !== id).map(([key]) => key as SessionKey),
      );
    },
    async status() {
      const now = Date.now();
      const sessions = (await store.list()).map(({ key, lease, expiresInMs }) => ({
        session: key,
        node: lease.node,
        url: lease.url,
        fence: lease.fence,
        ...(lease.file === undefined ? {} : { file: lease.file }),
        ...(lease.since === undefined ? {} : { ageMs: Math.max(0, now - lease.since) }),
        expiresInMs,
      }));
      return { node: id, leaseTtlMs: store.ttlMs, sessions };
    },
    async forwardedIdentity(request) {
      const url = new URL(request.url);
      const credential =
        request.headers.get(IDENTITY_HEADER) ?? url.searchParams.get(IDENTITY_QUERY);
      if (credential === null) return undefined;
      return (await signer.verify(credential, request.method, url.pathname)) ?? null;
    },
    async forwardHttp(c, error, refuse, access, origin, reclaim) {
      const name = c.req.param("name") ?? "";
      if (
        !(error instanceof SessionOwnedElsewhereError) ||
        c.req.header(FORWARDED_BY) !== undefined
      )
        return refused(c, error, refuse);
      const method = c.req.method;
      const body = method === "GET" || method === "HEAD" ? undefined : await c.req.arrayBuffer();
      // The owner trusts what this node vouches for, not the caller's own credential.
      const headers = new Headers(c.req.raw.headers);
      headers.delete("authorization");
      headers.set(IDENTITY_HEADER, await vouch(c, access, origin, name));
      const giveUp = new AbortController();
      const request = new Request(c.req.url, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        signal: AbortSignal.any([c.req.raw.signal, giveUp.signal]),
      });
      const end = reclaim === undefined ? undefined : leaseEndOf(error);
      try {
        const outcome = await Promise.race([
          forwardRequest(request, error.ownerUrl, id).then(
            (response) => ({ response }),
            () => ({ failed: true }),
          ),
          ...(end === undefined ? [] : [end.ended.then(() => ({ ended: true }))]),
        ]);
        if ("response" in outcome) {
          forwarded(name, "http", error.ownerNode, "ok");
          return outcome.response;
        }
        if (end !== undefined && reclaim !== undefined && !c.req.raw.signal.aborted) {
          // The owner did not answer (frozen, or dead with its lease running): serve it here
          // the moment its lease ends, once, with the caller's own credentials.
          giveUp.abort();
          await end.ended;
          forwarded(name, "http", error.ownerNode, "lease_expired");
          const again = new Headers(c.req.raw.headers);
          again.set(FORWARDED_BY, id);
          return reclaim(
            new Request(c.req.url, {
              method,
              headers: again,
              ...(body === undefined ? {} : { body }),
            }),
          );
        }
        forwarded(name, "http", error.ownerNode, "unreachable");
        return refused(c, error, refuse);
      } finally {
        end?.cancel();
      }
    },
    async forwardSocket(c, error, refuse, runtime, protocol, access, origin, reclaim) {
      const name = c.req.param("name") ?? "";
      if (
        !(error instanceof SessionOwnedElsewhereError) ||
        c.req.query(FORWARDED_QUERY) !== undefined
      )
        return refused(c, error, refuse);
      const target = new URL(ownerUrl(c.req.url, error.ownerUrl, "ws"));
      target.searchParams.set(FORWARDED_QUERY, id);
      // The caller's token or ticket (subprotocol entry or header) stays here: the owner gets
      // what this node vouches for instead, so a header-authenticated socket forwards as well.
      target.searchParams.set(IDENTITY_QUERY, await vouch(c, access, origin, name));
      const end = reclaim === undefined ? undefined : leaseEndOf(error);
      const giveUp = new AbortController();
      try {
        const outcome = await Promise.race([
          connectOwner(
            target.href,
            protocol === undefined ? [] : [protocol],
            await webSocketConstructor(),
            OWNER_ANSWER_MS + (end?.inMs ?? 0),
            AbortSignal.any([giveUp.signal, c.req.raw.signal]),
          ).then(
            (link) => ({ link }),
            (failure: unknown) => ({ failure }),
          ),
          ...(end === undefined ? [] : [end.ended.then(() => ({ ended: true }))]),
        ]);
        if ("link" in outcome) {
          const { link } = outcome;
          // The client left while the owner answered: nobody may hold the session's control.
          if (c.req.raw.signal.aborted) {
            link.close();
            return refused(c, error, refuse);
          }
          forwarded(name, "websocket", error.ownerNode, "ok");
          relays.add(link);
          return runtime.upgrade(
            c,
            link.events(() => relays.delete(link)),
            protocol,
          );
        }
        const refusedByOwner =
          "failure" in outcome &&
          outcome.failure instanceof OwnerSocketError &&
          outcome.failure.kind === "refused";
        if (end !== undefined && reclaim !== undefined && !refusedByOwner) {
          // The owner did not answer (frozen, or dead with its lease running): take the
          // session over here the moment its lease ends, instead of refusing after a timeout.
          giveUp.abort();
          await end.ended;
          forwarded(name, "websocket", error.ownerNode, "lease_expired");
          return reclaim();
        }
        forwarded(name, "websocket", error.ownerNode, "unreachable");
        return refused(c, error, refuse);
      } finally {
        end?.cancel();
      }
    },
    async close() {
      keeper.close();
      await store.close().catch(() => {
        // Never connected, or gone: nothing is left to close.
      });
    },
  };
}

/** The end of the lease `error` found, when it names one. */
function leaseEndOf(error: SessionOwnedElsewhereError): LeaseEnd | undefined {
  return error.leaseExpiresAt === undefined ? undefined : leaseEnd(error.leaseExpiresAt);
}

/**
 * Logs the store's connection once per outage: the first failure (at warn, with the URL, its
 * password hidden, and the cause) and the connection when it is up again. node-redis retries
 * every second meanwhile, and one line per retry would bury everything else.
 */
function storeLog(
  redisUrl: string,
  logger: BridgeLogger,
): { onError: (error: Error) => void; onReady: () => void } {
  const url = redactedUrl(redisUrl);
  let failing = false;
  return {
    onError(error) {
      if (failing) return;
      failing = true;
      safeLog(logger, { event: "lease_store_unreachable", url, error: errorText(error) });
    },
    onReady() {
      failing = false;
      safeLog(logger, { event: "lease_store_connected", url });
    },
  };
}

/** An error and its code (`ECONNREFUSED`, `ENOTFOUND`), one line. */
function errorText(error: Error): string {
  const code = (error as { code?: unknown }).code;
  const message = error.message || error.name;
  return typeof code === "string" && !message.includes(code) ? `${code}: ${message}` : message;
}

/** The runtime's WebSocket client: the global one, or `ws`'s on Node 20. */
async function webSocketConstructor(): Promise<OwnerSocketConstructor> {
  const global = (globalThis as { WebSocket?: unknown }).WebSocket;
  if (global !== undefined) return global as OwnerSocketConstructor;
  const ws = (await import("ws")) as unknown as { WebSocket: OwnerSocketConstructor };
  return ws.WebSocket;
}

function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}
