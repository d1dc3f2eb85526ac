/**
 * `GET /cluster/sessions`: what an operator reads to inspect a stuck session. Every session leased
 * in the cluster, whichever node holds it, with its owner, fence, file and lease age, from any
 * node, for the bridge's token only; and `pi-kit-bridge cluster status`, which prints it as a table.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ClusterStatus } from "../../src/cluster/cluster-node.ts";
import { runCli } from "../cli-process.ts";
import { connect, startBridge, type TestBridge } from "../helpers.ts";
import { mint, ticketKeys } from "../ticket-helpers.ts";
import { useRedis } from "./redis-fixture.ts";

const TTL_MS = 3000;
const cluster = useRedis("pi-kit-cluster-status");
const { tempDir } = cluster;

async function nodeId(bridge: TestBridge): Promise<string | null> {
  const response = await fetch(`${bridge.url}/healthz`);
  await response.body?.cancel();
  return response.headers.get("pi-kit-node");
}

/** Runs `pi-kit-bridge cluster status` with `args` and the token in the environment. */
async function statusCli(args: readonly string[], token: string) {
  const cli = runCli(["cluster", "status", ...args], {
    env: { ...(process.env as Record<string, string>), PI_KIT_BRIDGE_TOKEN: token },
  });
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

test("cluster status: any node lists every leased session with its owner, fence, file and lease age; tickets are refused; the CLI prints it as a table", async () => {
  const keys = await ticketKeys();
  const sessionsDir = tempDir("sessions");
  const node = (token?: string) =>
    startBridge({
      sessionsDir,
      tickets: keys.options,
      ...(token === undefined ? {} : { token }),
      cluster: { redisUrl: cluster.redis.url, leaseTtlMs: TTL_MS, indexDir: tempDir("index") },
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

    const printed = await statusCli(["--url", b.url], a.token);
    assert.equal(printed.code, 0, printed.stderr);
    const [header, ...lines] = printed.stdout.trimEnd().split("\n");
    assert.match(header as string, /^SESSION\s+OWNER\s+FENCE\s+LEASE AGE\s+EXPIRES IN\s+FILE$/);
    for (const session of ["on-a", "on-b"]) {
      const leased = bySession.get(session);
      const row = lines.find((l) => l.startsWith(`${session} `))?.split(/\s{2,}/);
      assert.equal(row?.[1], leased?.node, `${session}: its owner in\n${printed.stdout}`);
      assert.equal(row?.[2], String(leased?.fence), `${session}: its fence`);
      assert.match(row?.[3] ?? "", /^\d+(\.\d)? m?s$/, `${session}: its lease age`);
    }
    assert.match(
      lines.at(-1) ?? "",
      new RegExp(`leased \\(asked ${await nodeId(b)}; lease TTL 3\\.0 s\\)$`),
    );
    const wrong = await statusCli(["--url", b.url], "x".repeat(43));
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /cluster\/sessions answered 401/);
    await onA.close();
    await onB.close();
  } finally {
    await b.dispose();
    await a.dispose();
  }
});
