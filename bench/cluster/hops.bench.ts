/**
 * Cluster benchmark: what the cluster's hops cost, and memory per session.
 * - Added latency per record through haproxy, and through a forwarding hop (a socket to a node
 *   that does not own the session, which relays it to the owner), against a socket straight to
 *   the owner: round trips of `get_state` on one session over the three paths, interleaved and
 *   paced under the bridge's per-connection rate limit; a
 *   round trip crosses each hop twice, so the added latency per record is half the difference of
 *   the medians. Target: p50 ≤ +0.3 ms.
 * - Memory: the bridge's plus its pis' resident memory per idle and per streaming session (on
 *   one node, from /proc), and the node size that follows for 1,000 concurrent users.
 *
 * Run on Node 22: node --conditions=@pi-kit/source bench/cluster/hops.bench.ts
 */
import { readFileSync } from "node:fs";
import { startCluster } from "../../packages/bridge/test/cluster/cluster-harness.ts";
import { processTree } from "../../packages/bridge/test/cluster/pi-audit.ts";
import { connect, type TestClient } from "../../packages/bridge/test/helpers.ts";
import { percentile } from "../bridge/timing.ts";
import { type Check, quick, report } from "../lib/measure.ts";

const ROUND_TRIPS = quick ? 50 : 1000;
/** A bridge allows 50 messages a second per connection: pace each connection below that. */
const ROUND_MS = 25;
const SESSIONS = quick ? 2 : 10;
const MiB = 1024 * 1024;

/** Resident memory of `pid` and its descendants, in bytes. */
function treeRss(pid: number): number {
  let total = 0;
  for (const p of processTree(pid)) {
    try {
      const status = readFileSync(`/proc/${p}/status`, "utf8");
      total += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

// Two nodes are enough for a forwarding hop.
const cluster = await startCluster({ nodes: 2, leaseTtlMs: 5000 });
const checks: Check[] = [];
try {
  // Latency: one session, its owner, and another node that forwards to it.
  const driver = await cluster.connect("hops");
  await driver.promptAndWait("Hello [[text measure me]]");
  const { node: owner } = await cluster.waitOwner("hops");
  const other = cluster.nodes.find((n) => n !== owner);
  if (other === undefined) throw new Error("one node only");
  const at = (base: string) => ({
    token: cluster.token,
    wsUrl: (name: string) => `${base.replace(/^http/, "ws")}/sessions/${name}/ws`,
  });
  const paths: Record<string, TestClient> = {
    direct: await connect(at(owner.url), "hops"),
    haproxy: await connect(at(cluster.haproxy.url), "hops"),
    forwarded: await connect(at(other.url), "hops"),
  };
  const times: Record<string, number[]> = { direct: [], haproxy: [], forwarded: [] };
  for (const [name, client] of Object.entries(paths)) {
    void client.closed.then(({ code, reason }) => {
      if (code !== 1000) console.log(`the ${name} socket closed: ${code} ${reason}`);
    });
  }
  for (let i = -20; i < ROUND_TRIPS; i++) {
    const paced = new Promise((resolve) => setTimeout(resolve, ROUND_MS));
    // The first request after the pause wakes everything up: rotate who goes first.
    const order = Object.entries(paths);
    const first = (i + 21) % order.length;
    const rotated = [...order.slice(first), ...order.slice(0, first)];
    for (const [name, client] of rotated) {
      const start = performance.now();
      await client.request({ type: "get_state" });
      if (i >= 0) times[name]?.push(performance.now() - start);
    }
    await paced;
  }
  const p50 = (name: string) =>
    percentile(
      (times[name] as number[]).sort((a, b) => a - b),
      0.5,
    );
  for (const name of ["direct", "haproxy", "forwarded"]) {
    const sorted = times[name] as number[];
    console.log(
      `get_state round trip ${name}: p50 ${p50(name).toFixed(3)} ms, p99 ${percentile(sorted, 0.99).toFixed(3)} ms (${sorted.length})`,
    );
  }
  for (const name of ["haproxy", "forwarded"]) {
    checks.push({
      name: `added latency per record through ${name === "haproxy" ? "haproxy" : "a forwarding hop"}, p50`,
      value: (p50(name) - p50("direct")) / 2,
      op: "<=",
      target: 0.3,
      unit: " ms",
    });
  }
  for (const client of Object.values(paths)) await client.close();
  await driver.close();

  // Memory: sessions opened straight on one node, idle, then all streaming.
  const node = cluster.nodes[0];
  const bridgePid = node?.process?.pid;
  if (node === undefined || bridgePid === undefined) throw new Error("no node");
  const base = treeRss(bridgePid);
  const sessions: TestClient[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const client = await connect(at(node.url), `mem-${i}`);
    await client.request({ type: "get_state" }, 60_000);
    sessions.push(client);
  }
  const idle = (treeRss(bridgePid) - base) / SESSIONS;
  const from = sessions.map((c) => c.records.length);
  for (const client of sessions)
    client.send({ type: "prompt", id: "stream", message: "[[slow 50ms x 400]]" });
  await Promise.all(
    sessions.map((c, i) =>
      c.waitFor((r) => r.type === "message_update", 60_000, from[i] as number),
    ),
  );
  const streaming = (treeRss(bridgePid) - base) / SESSIONS;
  for (const client of sessions) await client.close();
  const perUserGiB = (1000 * streaming + base) / 1024 ** 3;
  console.log(
    `memory: bridge alone ${(base / MiB).toFixed(0)} MiB; per idle session ${(idle / MiB).toFixed(1)} MiB, per streaming session ${(streaming / MiB).toFixed(1)} MiB (bridge + pi, ${SESSIONS} sessions)`,
  );
  console.log(
    `1,000 concurrent users, one streaming session each: ${perUserGiB.toFixed(1)} GiB of resident memory`,
  );
} finally {
  await cluster.close();
}
report("Cluster hops and memory", checks);
