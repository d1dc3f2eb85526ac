/**
 * pi's response to a command goes to the socket that sent it and to no other, whatever ids the
 * clients choose: equal ids on two sockets, no id at all, a number and a string that print the
 * same, an id that looks like the bridge's own. Live, on real pi (1.x, and 0.73 on Node), on one
 * bridge and through a forward in cluster mode.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { startRedis } from "../cluster/redis-server.ts";
import { connect, lineVersions, type Rec, startBridge, type TestClient } from "../helpers.ts";

/** One command a client sends, as it writes it (`id` as given, or none). */
interface Sent {
  readonly client: TestClient;
  readonly command: Rec;
}

const responses = (client: TestClient, from: number): Rec[] =>
  client.records.slice(from).filter((r) => r.type === "response");

/**
 * Sends every command in one go, waits for each sender's answer, then proves that no socket got
 * an answer it did not ask for: a marker request on every socket comes after anything relayed
 * before it, since one socket's records keep their order.
 */
async function exchange(everyone: readonly TestClient[], sent: readonly Sent[]): Promise<void> {
  const from = new Map(everyone.map((c) => [c, c.records.length]));
  for (const { client, command } of sent) client.send(command);
  for (const { client, command } of sent) {
    const answer = await client.waitFor(
      (r) => r.type === "response" && r.command === command.type,
      30_000,
      from.get(client),
    );
    assert.equal(answer.success, true, JSON.stringify(answer));
    if ("id" in command) assert.deepEqual(answer.id, command.id, "the client's own id comes back");
    else assert.equal("id" in answer, false, `no id added: ${JSON.stringify(answer)}`);
  }
  const markers = await Promise.all(everyone.map((c) => c.request({ type: "get_state" })));
  for (const client of everyone) {
    const mine = sent.filter((s) => s.client === client).map((s) => s.command.type);
    const got = responses(client, from.get(client) ?? 0).filter(
      (r) => !markers.some((m) => m.id === r.id),
    );
    assert.deepEqual(
      got.map((r) => r.command),
      mine,
      `each socket gets its own answers and no one else's: ${JSON.stringify(got)}`,
    );
  }
}

/** The cases, for sockets `a`, `b` and `c` of one session (`a` controls it; all send queries). */
async function everyCase(a: TestClient, b: TestClient, c: TestClient): Promise<void> {
  const all = [a, b, c];
  // Equal ids on two sockets, sent in the same tick.
  await exchange(all, [
    { client: a, command: { type: "get_state", id: "same" } },
    { client: b, command: { type: "get_messages", id: "same" } },
  ]);
  // No ids: each answer to its sender only, not to every socket.
  await exchange(all, [
    { client: a, command: { type: "get_commands" } },
    { client: b, command: { type: "get_session_stats" } },
  ]);
  // Colliding ids: a number and a string that print alike, and the same id twice on one socket.
  await exchange(all, [
    { client: a, command: { type: "get_state", id: 1 } },
    { client: b, command: { type: "get_messages", id: "1" } },
    { client: c, command: { type: "get_commands", id: "1" } },
  ]);
  await exchange(all, [
    { client: c, command: { type: "get_state", id: "twice" } },
    { client: c, command: { type: "get_messages", id: "twice" } },
  ]);
  // An id that looks like the bridge's own is just an id.
  await exchange(all, [{ client: b, command: { type: "get_state", id: "pi-kit-bridge-1" } }]);
}

for (const version of lineVersions) {
  test(`replies: every answer goes to its sender alone, whatever ids the sockets choose (pi ${version})`, async () => {
    const bridge = await startBridge({ version });
    try {
      const a = await connect(bridge, "ids");
      await a.waitFor((r) => r.type === "bridge_control");
      const b = await connect(bridge, "ids");
      const c = await connect(bridge, "ids");
      await everyCase(a, b, c);
      await Promise.all([a.close(), b.close(), c.close()]);
    } finally {
      await bridge.dispose();
    }
  });
}

test("replies: through a forward in cluster mode, answers still go to their sender alone", async () => {
  const redis = await startRedis();
  const dirs = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), "pi-kit-replies-")));
  const [sessionsDir, indexA, indexB] = dirs as [string, string, string];
  const cluster = (indexDir: string) => ({ redisUrl: redis.url, leaseTtlMs: 3000, indexDir });
  const a = await startBridge({ sessionsDir, cluster: cluster(indexA) });
  const b = await startBridge({ sessionsDir, token: a.token, cluster: cluster(indexB) });
  try {
    const owner = await connect(a, "ids");
    await owner.waitFor((r) => r.type === "bridge_control");
    // Both forwarded by B to A over one node-to-node socket each.
    const forwarded = await connect(b, "ids");
    const forwardedToo = await connect(b, "ids");
    await forwarded.waitFor((r) => r.type === "bridge_control");
    await forwardedToo.waitFor((r) => r.type === "bridge_control");
    assert.equal(b.bridge.sessions.all().length, 0, "no pi on B: its sockets are forwarded");
    await everyCase(owner, forwarded, forwardedToo);
    await Promise.all([owner.close(), forwarded.close(), forwardedToo.close()]);
  } finally {
    await b.dispose();
    await a.dispose();
    await redis.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
});
