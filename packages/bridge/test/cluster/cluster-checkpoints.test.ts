/**
 * Cluster mode, issue 26: a session's checkpoints live on the shared storage (the sessions
 * directory, with the workspaces on shared storage too) and move with its lease. Node A takes the
 * checkpoints; A loses the lease (its life in Redis ends) and is fenced: from then on it writes
 * nothing in the checkpoint repository; node B takes the session over, lists the same changes
 * since the same checkpoints, and restores the workspace to a run's start. Real Redis, real pi
 * 1.x on the scripted model.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { ChangeSet, CheckpointList } from "@pi-kit/protocol/bridge";
import { createClient } from "redis";
import { tree } from "../../../../test-support/git-tree.ts";
import { connect, idOf, run, startBridge, type TestBridge } from "../helpers.ts";
import { useRedis } from "./redis-fixture.ts";

const TTL_MS = 3000;
const cluster = useRedis("pi-kit-cluster-cp");
const { tempDir } = cluster;

async function api<T>(bridge: TestBridge, path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${bridge.url}/api/sessions/work${path}`, {
    ...init,
    headers: { authorization: `Bearer ${bridge.token}`, ...init.headers },
  });
  const body = (await response.json()) as T;
  assert.equal(response.status, 200, JSON.stringify(body));
  return body;
}

test("cluster: checkpoints move with the lease; a fenced owner writes none; the new owner lists and restores them", {
  timeout: 180_000,
}, async () => {
  const sessionsDir = tempDir("sessions");
  const workspacesDir = tempDir("workspaces");
  const node = (token?: string) =>
    startBridge({
      sessionsDir,
      workspacesDir,
      ...(token === undefined ? {} : { token }),
      cluster: { redisUrl: cluster.redis.url, leaseTtlMs: TTL_MS, indexDir: tempDir("index") },
    });
  const a = await node();
  const b = await node(a.token);
  const ws = join(workspacesDir, "work");
  const repository = join(sessionsDir, ".checkpoints", "work");
  try {
    // On A: the session start, a file, a run (its checkpoint), then a change after it.
    const onA = await connect(a, "work");
    await idOf(onA);
    // The answer waits for the session-start checkpoint: what follows is after it.
    await api<CheckpointList>(a, "/checkpoints");
    mkdirSync(join(ws, "src"), { recursive: true });
    writeFileSync(join(ws, "src/app.ts"), "one\n");
    await run(onA, "first turn");
    writeFileSync(join(ws, "src/app.ts"), "two\n");
    writeFileSync(join(ws, "notes.txt"), "new\n");
    const { checkpoints } = await api<CheckpointList>(a, "/checkpoints");
    assert.deepEqual(
      checkpoints.map((c) => c.label),
      ["session start", "first turn"],
    );
    const onAChanges = await api<ChangeSet>(a, "/changes");
    assert.deepEqual(
      onAChanges.changes.map((c) => `${c.status} ${c.path}`),
      ["added notes.txt", "added src/app.ts"],
    );

    // A's life in Redis ends (its key gone, as when it expired), and its lease with it: A is
    // fenced, its sockets closed with 1012.
    const written = tree(repository);
    const store = createClient({ url: cluster.redis.url });
    await store.connect();
    try {
      const lease = JSON.parse((await store.get("pikit:lease:work")) ?? "{}") as { node?: string };
      assert.equal(await store.del(`pikit:node:${lease.node}`), 1, "A's life was in Redis");
    } finally {
      await store.quit();
    }
    assert.equal((await onA.closed).code, 1012);
    assert.ok(a.log.some((e) => e.event === "session_fenced" && e.session === "work"));
    assert.deepEqual(tree(repository), written, "the fenced owner wrote nothing");

    // B takes the session over: the same checkpoints, the same changes since them.
    const onB = await connect(b, "work");
    const controller = await idOf(onB);
    assert.ok(b.bridge.sessions.get("work")?.alive, "B runs the session now");
    assert.deepEqual((await api<CheckpointList>(b, "/checkpoints")).checkpoints, checkpoints);
    assert.deepEqual(await api<ChangeSet>(b, "/changes"), onAChanges);
    const sinceRun = await api<ChangeSet>(
      b,
      `/changes?since=${(checkpoints[1] as { id: string }).id}`,
    );
    assert.deepEqual(
      sinceRun.changes.map((c) => `${c.status} ${c.path}`),
      ["added notes.txt", "modified src/app.ts"],
    );
    // Undo the turn on B: the workspace as it was when the run started.
    await api<ChangeSet>(b, `/checkpoints/${(checkpoints[1] as { id: string }).id}/restore`, {
      method: "POST",
      headers: { "x-pi-kit-connection": String(controller) },
    });
    assert.equal(readFileSync(join(ws, "src/app.ts"), "utf8"), "one\n");
    assert.deepEqual(
      (await api<ChangeSet>(b, "/changes")).changes.map((c) => `${c.status} ${c.path}`),
      ["added src/app.ts"],
    );
    await onB.close();
  } finally {
    await b.dispose();
    await a.dispose();
  }
});
