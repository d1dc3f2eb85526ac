/**
 * Cluster mode end to end on loopback: bridges on one sessions directory and one real Redis, real
 * pi on the scripted model. A session runs on exactly one node: the others forward its sockets
 * and API calls there; a killed owner's sessions are taken over after the lease TTL on a fenced
 * file, and a client that reconnects sees the same transcript; an owner that cannot reach Redis
 * fences itself before the TTL; a drained owner releases its leases at once.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { test } from "node:test";
import type { WebSocketTransport } from "@pi-kit/client";
import { spawnBridge } from "../bridge-process.ts";
import { connect, connectClient, run, startBridge, type TestBridge } from "../helpers.ts";
import { useRedis } from "./redis-fixture.ts";
import { startRedis } from "./redis-server.ts";

/** As the chaos cluster's: on a loaded 2-core machine a healthy node keeps its leases. */
const TTL_MS = 3000;
/** Reconnects quickly, as a browser's client would through the proxy. */
const FAST_RECONNECT = { initialDelayMs: 100, maxDelayMs: 400, maxAttempts: 200 };

const cluster = useRedis("pi-kit-cluster");
const { tempDir } = cluster;

/** A bridge in this process, in cluster mode on `sessionsDir`. */
function clusterBridge(
  sessionsDir: string,
  redisUrl: string,
  leaseTtlMs = TTL_MS,
  token?: string,
): Promise<TestBridge> {
  return startBridge({
    sessionsDir,
    ...(token === undefined ? {} : { token }),
    cluster: { redisUrl, leaseTtlMs, indexDir: tempDir("index") },
  });
}

/** A bridge CLI process in cluster mode on `sessionsDir`, sharing `peer`'s pi and token. */
function clusterBridgeProcess(sessionsDir: string, peer: TestBridge, leaseTtlMs = TTL_MS) {
  return spawnBridge({
    pi: peer.pi,
    sessionsDir,
    token: peer.token,
    args: [
      "--cluster",
      cluster.redis.url,
      "--lease-ttl-ms",
      String(leaseTtlMs),
      "--index-dir",
      tempDir("index"),
    ],
  });
}

/** The node id a bridge names in `Pi-Kit-Node`. */
async function nodeOf(url: string): Promise<string> {
  const response = await fetch(`${url}/healthz`);
  await response.body?.cancel();
  const node = response.headers.get("pi-kit-node");
  assert.ok(node, "Pi-Kit-Node on every response");
  return node;
}

/**
 * Resolves once `transport` has lost its socket and opened one where `served` holds (a refused
 * handshake opens and closes at once with 1013 for a pi-kit client).
 */
function reconnected(transport: WebSocketTransport, served: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    let lost = false;
    const onChange = () => {
      if (transport.state.status !== "open") lost = true;
      else if (lost && served()) {
        transport.removeEventListener("statechange", onChange);
        resolve();
      }
    };
    transport.addEventListener("statechange", onChange);
  });
}

test("cluster: a socket and an API call to another node reach the owner's one pi", async () => {
  const dir = tempDir("sessions");
  const a = await clusterBridge(dir, cluster.redis.url);
  const b = await clusterBridge(dir, cluster.redis.url, TTL_MS, a.token);
  try {
    const onA = await connect(a, "shared");
    await run(onA, "hello from a");
    const viaB = await connect(b, "shared");
    // The forwarded socket joins the session on A: it gets A's control record.
    await viaB.waitFor((r) => r.type === "bridge_control");
    const messages = await viaB.request({ type: "get_messages" });
    assert.equal(messages.success, true);
    const renamed = await fetch(`${b.url}/api/sessions/shared`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${a.token}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "Forwarded" }),
    });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.headers.get("pi-kit-node"), await nodeOf(a.url), "A answered");
    const summary = await fetch(`${b.url}/api/sessions/shared`, {
      headers: { authorization: `Bearer ${a.token}` },
    });
    const { session } = (await summary.json()) as { session: { state: string; title?: string } };
    assert.equal(session.state, "idle", "B's history shows the session live on A");
    assert.equal(a.bridge.sessions.all().length, 1);
    assert.equal(b.bridge.sessions.all().length, 0, "no second pi on B");
    assert.ok(b.log.some((e) => e.event === "forwarded" && e.kind === "websocket"));
    assert.ok(b.log.some((e) => e.event === "forwarded" && e.kind === "http"));
    const metrics = await fetch(`${b.url}/metrics`, {
      headers: { authorization: `Bearer ${a.token}` },
    });
    assert.match(await metrics.text(), /pikit_forwards_total\{kind="http",outcome="ok"\} 1/);
    const badPage = await fetch(`${b.url}/api/sessions?limit=0`, {
      headers: { authorization: `Bearer ${a.token}` },
    });
    assert.equal(badPage.status, 400);
    const afterError = await fetch(`${b.url}/metrics`, {
      headers: { authorization: `Bearer ${a.token}` },
    });
    assert.match(
      await afterError.text(),
      /pikit_refusals_total\{code="invalid_request"\} 1/,
      "an API error answer is counted by its code",
    );
    const onOwner = await fetch(`${a.url}/metrics`, {
      headers: { authorization: `Bearer ${a.token}` },
    });
    const relayed = /pikit_relay_seconds_count (\d+)/.exec(await onOwner.text());
    assert.ok(Number(relayed?.[1]) > 0, "the owner observed the relay of pi's records");
    await viaB.close();
    await onA.close();
  } finally {
    await b.dispose();
    await a.dispose();
  }
});

test("cluster: SIGKILL of the owner: the other node takes over after the TTL on a fenced file, the client sees the same transcript", async () => {
  const dir = tempDir("sessions");
  const b = await clusterBridge(dir, cluster.redis.url);
  const a = await clusterBridgeProcess(dir, b);
  try {
    const onA = await connect(
      { token: a.token, wsUrl: (n) => `${a.url.replace(/^http/, "ws")}/sessions/${n}/ws` },
      "talk",
    );
    await run(onA, "remember this");
    await onA.close();
    const client = await connectClient(b.url, b.token, "talk", FAST_RECONNECT);
    const transport = client.transport as WebSocketTransport;
    const before = {
      messages: await client.getMessages(),
      transcript: client.session.getSnapshot().messages,
    };
    assert.equal(b.bridge.sessions.all().length, 0, "B forwards to A");
    const back = reconnected(transport, () => b.bridge.sessions.get("talk")?.alive === true);
    a.kill("SIGKILL");
    await back;
    const taken = b.log.find((e) => e.event === "lease_taken_over");
    assert.ok(taken && "file" in taken && typeof taken.file === "string", "B took the lease over");
    assert.match(taken.file as string, /\.fence-\d+\.jsonl$/);
    assert.ok(existsSync(join(dir, taken.file as string)), "the fenced file exists");
    assert.equal(
      b.bridge.sessions.get("talk")?.info().resumedFrom,
      join(dir, taken.file as string),
    );
    assert.deepEqual(await client.getMessages(), before.messages, "get_messages");
    const metrics = await fetch(`${b.url}/metrics`, {
      headers: { authorization: `Bearer ${b.token}` },
    });
    const text = await metrics.text();
    assert.match(text, /pikit_leases_acquired_total\{how="takeover"\} 1/);
    assert.match(text, /pikit_failover_seconds_count\{how="takeover"\} 1/);
    assert.deepEqual(
      client.session.getSnapshot().messages,
      before.transcript,
      "the client's transcript",
    );
    await client.close();
  } finally {
    a.kill("SIGKILL");
    await a.exited;
    await b.dispose();
  }
});

test("cluster: an owner that cannot reach Redis fences itself before the TTL: pi killed, sockets closed 1012, /readyz 503", async () => {
  const own = await startRedis();
  const dir = tempDir("sessions");
  const a = await clusterBridge(dir, own.url);
  try {
    const client = await connect(a, "frozen");
    await run(client, "hi");
    const session = a.bridge.sessions.get("frozen");
    assert.ok(session);
    const started = performance.now();
    own.pause();
    const closed = await client.closed;
    assert.equal(closed.code, 1012);
    assert.ok(performance.now() - started < TTL_MS, "fenced before the lease could expire");
    await session.exited;
    assert.equal(a.bridge.sessions.get("frozen"), undefined);
    const ready = await fetch(`${a.url}/readyz`);
    assert.equal(ready.status, 503);
    own.resume();
  } finally {
    await a.dispose();
    await own.stop();
  }
});

test("cluster: SIGTERM drains: the owner exits 0, closes sockets 1001 and releases its leases at once", async () => {
  const dir = tempDir("sessions");
  const longTtl = 60_000;
  const b = await clusterBridge(dir, cluster.redis.url, longTtl);
  const a = await clusterBridgeProcess(dir, b, longTtl);
  try {
    const address = {
      token: a.token,
      wsUrl: (n: string) => `${a.url.replace(/^http/, "ws")}/sessions/${n}/ws`,
    };
    const onA = await connect(address, "moving");
    await run(onA, "before the drain");
    // Sent by pid: Deno's child_process reports any child it kill()ed as ended by that signal.
    process.kill(a.pid, "SIGTERM");
    assert.equal((await onA.closed).code, 1001);
    const exit = await a.exited;
    assert.deepEqual(exit, { code: 0, signal: null }, a.stderr());
    assert.match(a.stderr(), /"event":"drain_done"/);
    // Well within the 60 s lease: only a released lease lets B start pi now.
    const onB = await connect(b, "moving");
    await onB.waitFor((r) => r.type === "bridge_control");
    assert.ok(b.bridge.sessions.get("moving")?.alive, "B runs the session");
    const acquired = b.log.find((e) => e.event === "lease_acquired" && e.session === "moving");
    assert.ok(acquired, "acquired, not taken over");
    await onB.close();
  } finally {
    a.kill("SIGKILL");
    await a.exited;
    await b.dispose();
  }
});
