/**
 * What a bridge tells Prometheus about itself and its share of the cluster, for `/metrics`. Built
 * on prom-client: it imports `node:` modules, but Node, Deno and Bun all run it (tested on each),
 * so the bridge needs no registry of its own. Each bridge has its own registry, so two bridges in
 * one process (as in tests) never mix their figures.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** How a bridge came to hold a lease: a free key, one released by its holder, or one that expired. */
export type LeaseAcquisition = "free" | "released" | "takeover";

/** Where the figures read at scrape time come from (the bridge's live state, not a copy of it). */
export interface MetricsSources {
  /** Sessions on this bridge by state (for example `running`, `idle`, `starting`). */
  readonly sessionStates?: () => Readonly<Record<string, number>>;
  /** Leases this bridge holds now. */
  readonly leasesHeld?: () => number;
  /** Whether the lease store answers (absent without cluster mode). */
  readonly leaseStoreUp?: () => boolean;
}

/** Options of {@link createBridgeMetrics}. */
export interface BridgeMetricsOptions extends MetricsSources {
  /** Prepended to every name (`pikit_` by default). */
  readonly prefix?: string;
  /** Adds the runtime's process metrics (memory, CPU, event loop lag); on by default. */
  readonly processMetrics?: boolean;
}

/** A bridge's metrics: count and observe through the fields, expose with `text()`. */
export interface BridgeMetrics {
  /** Leases taken, by how ({@link LeaseAcquisition}): `takeover` counts failovers after a death. */
  readonly leasesAcquired: Counter<"how">;
  /** Leases lost, by reason: `expired` (self-fenced) or `taken` (another bridge holds it). */
  readonly leasesLost: Counter<"reason">;
  /** Sockets and API calls forwarded to a session's owner, by kind (`http`, `websocket`) and outcome. */
  readonly forwards: Counter<"kind" | "outcome">;
  /** From a session's first placement attempt here to its pi answering, when another node held it. */
  readonly failoverSeconds: Histogram<"how">;
  /** Requests and sockets refused, by the bridge's error code. */
  readonly refusals: Counter<"code">;
  /** From a pi record read to its send on a client socket. */
  readonly relaySeconds: Histogram;
  /** pi processes that ended, by reason (`exit`, `crash`, `stopped`, `fenced`, …). */
  readonly piExits: Counter<"reason">;
  /** The Prometheus text exposition's content type, for the response header. */
  readonly contentType: string;
  /** Everything in the Prometheus text format. */
  text(): Promise<string>;
}

/** Creates a bridge's metrics in a registry of its own. */
export function createBridgeMetrics(options: BridgeMetricsOptions = {}): BridgeMetrics {
  const prefix = options.prefix ?? "pikit_";
  const registers = [new Registry()];
  const [registry] = registers as [Registry];
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry, prefix });
  const { sessionStates, leasesHeld, leaseStoreUp } = options;
  new Gauge({
    name: `${prefix}sessions`,
    help: "Sessions on this bridge, by state.",
    labelNames: ["state"],
    registers,
    collect() {
      this.reset();
      for (const [state, n] of Object.entries(sessionStates?.() ?? {})) this.set({ state }, n);
    },
  });
  if (leasesHeld !== undefined) {
    new Gauge({
      name: `${prefix}leases_held`,
      help: "Session leases this bridge holds.",
      registers,
      collect() {
        this.set(leasesHeld());
      },
    });
  }
  if (leaseStoreUp !== undefined) {
    new Gauge({
      name: `${prefix}lease_store_up`,
      help: "1 while the lease store answers, 0 while it does not (the bridge is not ready then).",
      registers,
      collect() {
        this.set(leaseStoreUp() ? 1 : 0);
      },
    });
  }
  return {
    leasesAcquired: new Counter({
      name: `${prefix}leases_acquired_total`,
      help: "Session leases taken, by how: free, released by the last holder, or taken over after expiry.",
      labelNames: ["how"],
      registers,
    }),
    leasesLost: new Counter({
      name: `${prefix}leases_lost_total`,
      help: "Session leases lost: expired (renewals failed, the session was fenced) or taken.",
      labelNames: ["reason"],
      registers,
    }),
    forwards: new Counter({
      name: `${prefix}forwards_total`,
      help: "Requests and sockets forwarded to the session's owner, by kind and outcome.",
      labelNames: ["kind", "outcome"],
      registers,
    }),
    failoverSeconds: new Histogram({
      name: `${prefix}failover_seconds`,
      help: "Time from a session's first placement attempt on this bridge, while another held it, to its pi answering.",
      labelNames: ["how"],
      buckets: [0.5, 1, 2, 3, 5, 8, 10, 13, 20, 30, 60],
      registers,
    }),
    refusals: new Counter({
      name: `${prefix}refusals_total`,
      help: "Requests and sockets refused, by error code.",
      labelNames: ["code"],
      registers,
    }),
    relaySeconds: new Histogram({
      name: `${prefix}relay_seconds`,
      help: "Time from a pi record read to its send on a client socket.",
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5],
      registers,
    }),
    piExits: new Counter({
      name: `${prefix}pi_exits_total`,
      help: "pi processes that ended, by reason.",
      labelNames: ["reason"],
      registers,
    }),
    contentType: registry.contentType,
    text: () => registry.metrics(),
  };
}
