/**
 * Cluster benchmark: failover and drain at the bridges' default settings. Three bridges in cluster
 * mode behind haproxy (the shipped config), one session with a `PiClient` attached through haproxy:
 * - killed: the owner node dies (SIGKILL of the bridge and its pi, as when its machine dies)
 *   until the client has resynchronised with the session on another node (a `get_state` and
 *   `get_messages` answered there); target p99 ≤ 3 s;
 * - frozen: the owner node stops (SIGSTOP of the bridge and its pi, as a paused VM) until the
 *   same; target p99 ≤ 5 s (the frozen node is killed afterwards, not timed);
 * - drain: SIGTERM of the owner until the same; target p99 ≤ 3 s (the lease is released, so nobody
 *   waits for it to expire).
 * Each also prints when another node took the session over (from its log): the rest of the
 * figure is the new pi's start and the client's resync. The node hit is started again between
 * rounds (not timed), so three nodes serve each round.
 * Then Redis's load: operations per second (commands, and the calls of lease scripts) one node
 * causes to keep 1,000 sessions against keeping 1, counted by Redis itself (`INFO stats`) over
 * the same window.
 *
 * Run on Node 22: node --conditions=@pi-kit/source bench/cluster/failover.bench.ts
 * (BENCH_QUICK=1: one round each with a 1 s lease; BENCH_ROUNDS=n: n rounds each.)
 */
import type { PiClient } from "@pi-kit/client";
import { createClient } from "redis";
import { LeaseKeeper } from "../../packages/bridge/src/cluster/lease-keeper.ts";
import { connectRedisLeaseStore } from "../../packages/bridge/src/cluster/redis-lease-store.ts";
import {
  type Cluster,
  type ClusterNode,
  startCluster,
} from "../../packages/bridge/test/cluster/cluster-harness.ts";
import { startRedis } from "../../packages/bridge/test/cluster/redis-server.ts";
import { percentile } from "../bridge/timing.ts";
import { type Check, quick, report } from "../lib/measure.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (quick ? 1 : 20));

/** Resolves at the client's next resync (it answered from wherever the session is now). */
function resynced(client: PiClient): Promise<number> {
  return new Promise((resolve) => {
    const off = client.on("session_resynced", () => {
      off();
      resolve(performance.now());
    });
  });
}

/**
 * When another node than `hit` took the session (its `lease_taken_over` or `lease_acquired` log
 * line), in ms since `since` (wall clock, as the logs stamp).
 */
function takenAt(cluster: Cluster, hit: ClusterNode, since: number): number {
  const times = cluster.nodes
    .filter((n) => n !== hit)
    .flatMap((n) => (n.process?.stderr() ?? "").split("\n"))
    .filter((line) => /"event":"lease_(taken_over|acquired)","session":"bench"/.test(line))
    .map((line) => Date.parse((JSON.parse(line) as { time: string }).time) - since)
    .filter((ms) => ms >= 0);
  return Math.min(...times);
}

/**
 * One round: `hit` the owner, time until the client answers again (and until another node took
 * the session: the rest is the new pi's start), then restore the node.
 */
async function round(
  cluster: Cluster,
  client: PiClient,
  hit: "crash" | "freeze" | "terminate",
): Promise<{ ms: number; takenMs: number }> {
  const { node } = await cluster.waitOwner("bench");
  const back = resynced(client);
  const start = performance.now();
  const wall = Date.now();
  if (hit === "crash") await node.crash();
  else if (hit === "freeze") node.freeze();
  else await node.terminate();
  const ms = (await back) - start;
  const takenMs = takenAt(cluster, node, wall);
  await client.getState();
  if (hit === "freeze") await node.crash();
  // Out of rotation, then back in: the next round's session hashes to the node again.
  await cluster.haproxy.untilState(node.n, "DOWN");
  await node.start();
  await cluster.haproxy.untilState(node.n, "UP");
  return { ms, takenMs };
}

/** Redis operations per second one node causes to keep `sessions` leases, over `windowMs`. */
async function redisOpsPerSecond(
  redisUrl: string,
  ttlMs: number,
  sessions: number,
  windowMs: number,
) {
  const store = await connectRedisLeaseStore(redisUrl, { ttlMs });
  const stats = createClient({ url: redisUrl });
  await stats.connect();
  const commandsProcessed = async () =>
    Number(/total_commands_processed:(\d+)/.exec(await stats.info("stats"))?.[1]);
  const node = `bench-${sessions}`;
  const keeper = new LeaseKeeper(store, { node, onLost: () => {} });
  try {
    for (let i = 0; i < sessions; i++) {
      const key = `ops-${sessions}-${i}`;
      const result = await store.acquire(key, node, await keeper.life(), "http://x");
      if (!result.acquired || !keeper.keep(key, result.lease)) throw new Error("lease held");
    }
    const before = await commandsProcessed();
    const start = performance.now();
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const after = await commandsProcessed();
    // Less the INFO that read the first figure.
    return ((after - before - 1) * 1000) / (performance.now() - start);
  } finally {
    keeper.close();
    await store.close();
    await stats.close();
  }
}

const seconds = (x: number): string => `${(x / 1000).toFixed(2)} s`;
const checks: Check[] = [];
// The quick smoke run keeps CI short with a 1 s lease; a full run uses the defaults.
const settings = quick ? "1 s lease" : "default settings";
const cluster = await startCluster({ leaseTtlMs: quick ? 1000 : "default", drainTimeoutMs: 5000 });
try {
  const client = await cluster.connect("bench");
  await client.promptAndWait("Hello [[text a session to move]]");
  const targets = { crash: 3, freeze: 5, terminate: 3 } as const;
  const names = { crash: "killed node", freeze: "frozen node", terminate: "drain" } as const;
  for (const hit of ["crash", "freeze", "terminate"] as const) {
    const times: number[] = [];
    const taken: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const { ms, takenMs } = await round(cluster, client, hit);
      times.push(ms);
      taken.push(takenMs);
    }
    // Each round in order, so an outlier can be matched with the nodes' logs.
    console.log(
      `${names[hit]}, rounds in order (s): ${times.map((x) => (x / 1000).toFixed(1)).join(" ")}`,
    );
    console.log(
      `${names[hit]}, another node took the session after (s): ${taken.map((x) => (x / 1000).toFixed(1)).join(" ")}`,
    );
    times.sort((a, b) => a - b);
    const [p50, p99] = [percentile(times, 0.5), percentile(times, 0.99)];
    console.log(
      `${names[hit]}, lease ${cluster.leaseTtlMs / 1000} s, ${times.length} rounds: p50 ${seconds(p50)}, p99 ${seconds(p99)}, min ${seconds(times[0] as number)}`,
    );
    checks.push({
      name: `failover p99, ${names[hit]}, ${settings}`,
      value: p99 / 1000,
      op: "<=",
      target: targets[hit],
      unit: " s",
    });
  }
  await client.close();
  // A Redis of its own: the cluster's nodes renew their lives in theirs.
  const redis = await startRedis();
  // Three TTLs: several renew rounds whatever the TTL.
  const [ttl, windowMs] = [cluster.leaseTtlMs, 3 * cluster.leaseTtlMs];
  const one = await redisOpsPerSecond(redis.url, ttl, 1, windowMs);
  const many = await redisOpsPerSecond(redis.url, ttl, 1000, windowMs).finally(() => redis.stop());
  console.log(
    `Redis operations/s (commands and the calls of scripts) for one node's leases: 1 session ${one.toFixed(1)}, 1,000 sessions ${many.toFixed(1)} (${(many / one).toFixed(1)}x)`,
  );
} finally {
  await cluster.close();
}
report("Cluster failover and drain", checks);
