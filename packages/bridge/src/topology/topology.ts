/**
 * Where a bridge's sessions may run, chosen once from its options: on this machine alone (the
 * sessions directory's lock) or on any node of a cluster (a lease per session in Redis). Whose a
 * session is does not change with it (see `principals/`). A topology supplies everything that
 * differs between the two, so `createBridge` builds one bridge either way: the placement, the
 * history's index directory, forwarding, the node header and routes, readiness and drain.
 */
import type { Hono, MiddlewareHandler } from "hono";
import type { ReadinessCheck } from "../health/readiness.ts";
import type { Authentication, AuthenticationOptions } from "../http/authenticate.ts";
import type { Refuse } from "../http/refusal.ts";
import type { ClusterForward } from "../http/routes.ts";
import type { UpgradeRouteOptions } from "../http/upgrade-route.ts";
import type { BridgeMetrics } from "../metrics/bridge-metrics.ts";
import type { BridgeLimits } from "../options/bridge-options.ts";
import type { SessionPlacement } from "../placement/session-placement.ts";
import type { SessionKey } from "../principals/owner.ts";
import type { RegistrySettings, SessionRegistry } from "../sessions/session-registry.ts";
import type { WebSocketRuntime } from "../ws/runtime.ts";

/** What a topology asks of the bridge it is part of, once the bridge is built. */
export interface TopologyHost {
  /** The running sessions: a lost lease fences one of them, `/metrics` counts them. */
  registry(): SessionRegistry;
  /** Stops the whole bridge at once: it lost the right to run any session here. */
  close(): void;
}

/** What forwarding a refused request needs from the bridge. */
export interface ForwardingContext {
  readonly refuse: Refuse;
  readonly auth: Authentication;
  /** The runtime's WebSocket upgrade (guarded: a failed handshake is a refusal). */
  readonly sockets: WebSocketRuntime;
  /** Serves a request here again (its owner did not answer before its lease ran out). */
  readonly serve: (request: Request) => Promise<Response>;
}

/** The answers to requests for sessions this bridge may not run; none on a single node. */
export interface Forwarding {
  /** For the HTTP API (see `sessionRoutes`). */
  readonly http: ClusterForward | undefined;
  /** For a session's socket (see `upgradeRoute`). */
  readonly socket: UpgradeRouteOptions["forward"];
}

/** Where a bridge's sessions may run, and everything that follows from it. */
export interface Topology {
  /** The limits it sets under the caller's own (a cluster node's keepalive follows its lease TTL). */
  readonly limits: Partial<BridgeLimits>;
  /** Which sessions this bridge may run: claimed before pi starts or a file changes. */
  readonly placement: SessionPlacement;
  /** Where this bridge keeps its history index files; `undefined`: in each sessions directory. */
  readonly indexDir: string | undefined;
  /** Sessions of `keys` another node runs now (the history shows them live). */
  readonly runningElsewhere:
    | ((keys: readonly SessionKey[]) => Promise<Set<SessionKey>>)
    | undefined;
  /** Whether this bridge may write session `key`'s storage now (checkpoints); `undefined`: always. */
  readonly mayWrite: ((key: SessionKey) => boolean) | undefined;
  /** What the registry reports about its sessions to the topology (metrics, the file pi writes). */
  readonly sessionEvents: Pick<RegistrySettings, "onPiExit" | "onRelayed" | "onFileMoved">;
  /** Counts every refusal by its code, when the bridge keeps metrics. */
  readonly metrics: Pick<BridgeMetrics, "refusals"> | undefined;
  /** The identity another node vouches for on a request it forwarded here (see `authentication`). */
  readonly forwardedIdentity: AuthenticationOptions["forwardedIdentity"];
  /** What `/readyz` checks besides pi and the directories. */
  readonly readiness: readonly ReadinessCheck[];
  /** Runs first on every request: names the node that answered. */
  readonly nodeHeader: MiddlewareHandler;
  /** Routes for the bridge's own token, mounted after authentication (`/metrics`, ...). */
  nodeRoutes(accessOf: Authentication["accessOf"], refuse: Refuse): Hono;
  /** The answers to requests for sessions another node runs. */
  forwarding(context: ForwardingContext): Forwarding;
  /** Before the bridge stops its sessions: lets running turns settle (a cluster node's drain). */
  drain(registry: SessionRegistry): Promise<void>;
  /** Gives up the placement, then anything else the topology holds (after every pi stopped). */
  close(): Promise<void>;
}
