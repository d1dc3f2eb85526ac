/**
 * `GET /cluster/sessions`: what an operator reads to inspect a stuck session. Every session leased
 * in the cluster, whichever node holds it, with its owner, fence, file and lease age, from any
 * node, for the bridge's token only.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { ClusterStatus } from "../../src/cluster/cluster-node.ts";
import { connect, startBridge, type TestBridge } from "../helpers.ts";
import { mint, ticketKeys } from "../ticket-helpers.ts";
import { startRedis, type TestRedis } from "./redis-server.ts";

const TTL_MS = 3000;
let redis: TestRedis;
const temps: string[] = [];
before(async () => {
  redis = await startRedis();
});
after(async () => {
  await redis.stop();
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function tempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `pi-kit-cluster-status-${label}-`));
  temps.push(dir);
  return dir;
}

async function nodeId(bridge: TestBridge): Promise<string | null> {
  const response = await fetch(`${bridge.url}/healthz`);
  await response.body?.cancel();
  return response.headers.get("pi-kit-node");
}

test("cluster status: any node lists every leased session with its owner, fence, file and lease age; tickets are refused", async () => {
  const keys = await ticketKeys();
  const sessionsDir = tempDir("sessions");
  const node = (token?: string) =>
    startBridge({
      sessionsDir,
      tickets: keys.options,
      ...(token === undefined ? {} : { token }),
      cluster: { redisUrl: redis.url, leaseTtlMs: TTL_MS, indexDir: tempDir("index") },
    });
  const a = await node();
  const b = await node(a.token);
  try {
    const onA = await connect(a, "on-a");
    const onB = await connect(b, "on-b");
    await onA.waitFor((r) => r.type === "bridge_control");
    await onB.waitFor((r) => r.type === "bridge_control");
    const response = await fetch(`${b.url}/cluster/sessions`, {
      headers: { authorization: `Bearer ${a.token}` },
    });
    assert.equal(response.status, 200);
    const status = (await response.json()) as ClusterStatus;
    assert.equal(status.node, await nodeId(b));
    assert.equal(status.leaseTtlMs, TTL_MS);
    const bySession = new Map(status.sessions.map((s) => [s.session, s]));
    assert.equal(bySession.get("on-a")?.node, await nodeId(a), "A's session, listed by B");
    assert.equal(bySession.get("on-b")?.node, await nodeId(b));
    assert.equal(bySession.get("on-a")?.url, a.url);
    for (const session of ["on-a", "on-b"]) {
      const leased = bySession.get(session);
      assert.ok(leased, session);
      assert.ok(leased.fence >= 1, `${session}: fence ${leased.fence}`);
      assert.ok(leased.ageMs !== undefined && leased.ageMs >= 0 && leased.ageMs < 60_000);
      assert.ok(leased.expiresInMs > 0 && leased.expiresInMs <= TTL_MS);
    }
    const ticket = await mint(keys, { sub: "alice", sessions: ["on-a"] });
    const refused = await fetch(`${b.url}/cluster/sessions`, {
      headers: { authorization: `Bearer ${ticket}` },
    });
    assert.equal(refused.status, 403, "a ticket user learns nothing of the cluster");
    await refused.body?.cancel();
    await onA.close();
    await onB.close();
  } finally {
    await b.dispose();
    await a.dispose();
  }
});
