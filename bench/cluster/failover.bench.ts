/**
 * Cluster benchmark: failover and drain. Three bridges in cluster mode behind haproxy (the shipped
 * config), one session with a `PiClient` attached through haproxy:
 * - failover: the owner node dies (SIGKILL of the bridge and its pi, as when its machine dies)
 *   until the client has resynchronised with the session on another node (a `get_state` and
 *   `get_messages` answered there), for leases of 5 s and 10 s; target p99 ≤ lease TTL + 3 s;
 * - drain: SIGTERM of the owner until the same; target p99 ≤ 3 s (the lease is released, so nobody
 *   waits for it to expire).
 * The dead or drained node is started again between rounds (not timed), so three nodes serve each round.
 *
 * Run on Node 22: node --conditions=@pi-kit/source bench/cluster/failover.bench.ts
 * (BENCH_QUICK=1: one round each, with a 1 s lease.)
 */
import type { PiClient } from "@pi-kit/client";
import { type Cluster, startCluster } from "../../packages/bridge/test/cluster/cluster-harness.ts";
import { percentile } from "../bridge/timing.ts";
import { type Check, quick, report } from "../lib/measure.ts";

const ROUNDS = quick ? 1 : 20;
const DRAIN_ROUNDS = quick ? 1 : 20;
const TTLS = quick ? [1000] : [5000, 10_000];

/** Resolves at the client's next resync (it answered from wherever the session is now). */
function resynced(client: PiClient): Promise<number> {
  return new Promise((resolve) => {
    const off = client.on("session_resynced", () => {
      off();
      resolve(performance.now());
    });
  });
}

/** One round: `hit` the owner, time until the client answers again, then restore the node. */
async function round(
  cluster: Cluster,
  client: PiClient,
  hit: "crash" | "terminate",
): Promise<number> {
  const { node } = await cluster.waitOwner("bench");
  const back = resynced(client);
  const start = performance.now();
  if (hit === "crash") await node.crash();
  else await node.terminate();
  const ms = (await back) - start;
  await client.getState();
  // Out of rotation, then back in: the next round's session hashes to the node again.
  await cluster.haproxy.untilState(node.n, "DOWN");
  await node.start();
  await cluster.haproxy.untilState(node.n, "UP");
  return ms;
}

/** On a fresh cluster with `ttlMs` leases: `rounds` failovers, then `drainRounds` drains (sorted ms). */
async function measure(ttlMs: number, rounds: number, drainRounds: number) {
  const cluster = await startCluster({ leaseTtlMs: ttlMs, drainTimeoutMs: 5000 });
  try {
    const client = await cluster.connect("bench");
    await client.promptAndWait("Hello [[text a session to move]]");
    const failovers: number[] = [];
    for (let i = 0; i < rounds; i++) failovers.push(await round(cluster, client, "crash"));
    const drains: number[] = [];
    for (let i = 0; i < drainRounds; i++) drains.push(await round(cluster, client, "terminate"));
    await client.close();
    // Each round in order, so an outlier can be matched with the nodes' logs.
    console.log(
      `lease ${ttlMs / 1000} s, rounds in order (s): failover ${failovers.map((x) => (x / 1000).toFixed(1)).join(" ")}${drains.length > 0 ? `; drain ${drains.map((x) => (x / 1000).toFixed(1)).join(" ")}` : ""}`,
    );
    const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
    return { failovers: sorted(failovers), drains: sorted(drains) };
  } finally {
    await cluster.close();
  }
}

const seconds = (x: number): string => `${(x / 1000).toFixed(2)} s`;
const checks: Check[] = [];
for (const [i, ttl] of TTLS.entries()) {
  // Drains do not wait for a lease to expire: measured once, on the first cluster.
  const { failovers, drains } = await measure(ttl, ROUNDS, i === 0 ? DRAIN_ROUNDS : 0);
  const [p50, p99] = [percentile(failovers, 0.5), percentile(failovers, 0.99)];
  console.log(
    `failover, lease ${ttl / 1000} s, ${failovers.length} rounds: p50 ${seconds(p50)}, p99 ${seconds(p99)}, min ${seconds(failovers[0] as number)}`,
  );
  checks.push({
    name: `failover p99, lease ${ttl / 1000} s`,
    value: p99 / 1000,
    op: "<=",
    target: ttl / 1000 + 3,
    unit: " s",
  });
  if (drains.length === 0) continue;
  const [d50, d99] = [percentile(drains, 0.5), percentile(drains, 0.99)];
  console.log(`drain, ${drains.length} rounds: p50 ${seconds(d50)}, p99 ${seconds(d99)}`);
  checks.push({ name: "drain p99", value: d99 / 1000, op: "<=", target: 3, unit: " s" });
}
report("Cluster failover and drain", checks);
