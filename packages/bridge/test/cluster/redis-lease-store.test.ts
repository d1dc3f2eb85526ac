/**
 * The Redis lease store against a real redis-server: one holder at a time, a larger fence on every
 * acquire, leases bound to their node's life (one liveness key per node, the only key with an
 * expiry), compare-and-record and compare-and-delete that refuse a stale fence or a life that is
 * over, and a takeover of a dead life's lease told apart from taking a released one.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createClient } from "redis";
import type { Lease } from "../../src/cluster/lease-store.ts";
import {
  connectRedisLeaseStore,
  type RedisLeaseStore,
} from "../../src/cluster/redis-lease-store.ts";
import { startRedis, type TestRedis } from "./redis-server.ts";

let redis: TestRedis;
let a: RedisLeaseStore;
let b: RedisLeaseStore;
let raw: ReturnType<typeof createClient>;
let count = 0;
/** A key no other test uses. */
const fresh = (): string => `user/session-${count++}`;

before(async () => {
  redis = await startRedis();
  a = await connectRedisLeaseStore(redis.url);
  b = await connectRedisLeaseStore(redis.url);
  raw = createClient({ url: redis.url });
  raw.on("error", () => {});
  await raw.connect();
});
after(async () => {
  await Promise.all([a.close(), b.close(), raw.close()]);
  await redis.stop();
});

/** Each node's current life in these tests. */
const lives = new Map<string, string>();
let lifeCount = 0;

/** `node`'s life, begun on first use (and again after {@link expire} ended it). */
async function live(store: RedisLeaseStore, node: string): Promise<string> {
  const known = lives.get(node);
  if (known !== undefined) return known;
  const life = `life-${lifeCount++}`;
  await store.beginLife(node, life);
  lives.set(node, life);
  return life;
}

/** What Redis does when a node stops renewing its life: its key goes, nobody released anything. */
async function expire(node: string): Promise<void> {
  assert.equal(await raw.del(`pikit:node:${node}`), 1);
  lives.delete(node);
}

async function mustAcquire(store: RedisLeaseStore, key: string, node: string, file?: string) {
  const life = await live(store, node);
  const result = await store.acquire(key, node, life, `http://${node}.internal`, file);
  assert.ok(result.acquired, `${node} should acquire ${key}`);
  return result;
}

test("acquire: a free key is taken with fence 1 and no previous holder; a second node is refused and told who holds it", async () => {
  const key = fresh();
  const first = await mustAcquire(a, key, "n1", "/s/one.jsonl");
  assert.equal(first.lease.fence, 1);
  assert.equal(first.lease.node, "n1");
  assert.equal(first.lease.url, "http://n1.internal");
  assert.equal(first.lease.file, "/s/one.jsonl");
  assert.equal(first.lease.life, lives.get("n1"));
  assert.equal(first.previous, undefined);
  const second = await b.acquire(key, "n2", await live(b, "n2"), "http://n2.internal");
  assert.equal(second.acquired, false);
  assert.equal(second.acquired === false && second.holder?.node, "n1");
  assert.ok(second.acquired === false && (second.holder?.expiresAt ?? 0) > Date.now());
  assert.deepEqual({ ...(await b.read(key)), expiresAt: 0 }, { ...first.lease, expiresAt: 0 });
  assert.equal(await raw.pTTL(`pikit:lease:${key}`), -1, "the lease itself never expires");
  const pttl = await raw.pTTL("pikit:node:n1");
  assert.ok(pttl > 0 && pttl <= a.ttlMs, `the node's life has the TTL (pttl ${pttl})`);
});

test("renewLife: extends the node's life while it is its own, never revives one that ran out", async () => {
  const life = await live(a, "n5");
  await raw.pExpire("pikit:node:n5", 200);
  assert.equal(await a.renewLife("n5", life), true);
  assert.ok((await raw.pTTL("pikit:node:n5")) > 200, "renewed for a whole TTL");
  assert.equal(await a.renewLife("n5", "another"), false);
  await expire("n5");
  assert.equal(await a.renewLife("n5", life), false);
  assert.equal(await raw.exists("pikit:node:n5"), 0, "not revived");
});

test("record: the holder records a new file in the lease and the last record", async () => {
  const key = fresh();
  const { lease } = await mustAcquire(a, key, "n1", "/s/old.jsonl");
  const recorded = await a.record(key, lease, "/s/new.jsonl");
  assert.equal(recorded?.fence, lease.fence);
  assert.equal(recorded?.file, "/s/new.jsonl");
  assert.equal((await b.read(key))?.file, "/s/new.jsonl");
  assert.equal((await b.last(key))?.lease.file, "/s/new.jsonl");
});

test("release: compare-and-delete frees the key at once; the next owner gets a larger fence, the file, and no takeover", async () => {
  const key = fresh();
  const { lease } = await mustAcquire(a, key, "n1", "/s/f.jsonl");
  assert.equal(
    await b.release(key, { ...lease, node: "n2" }),
    false,
    "another node cannot release it",
  );
  assert.equal(await a.release(key, lease), true);
  assert.equal(await a.read(key), undefined);
  const next = await mustAcquire(b, key, "n2");
  assert.equal(next.lease.fence, lease.fence + 1);
  assert.equal(
    next.lease.file,
    "/s/f.jsonl",
    "the resumable file is carried on from the last holder",
  );
  assert.equal(next.previous?.released, true);
  assert.equal(next.previous?.lease.node, "n1");
  assert.equal(await a.release(key, lease), false, "releasing twice frees nothing");
  assert.equal((await a.read(key))?.node, "n2");
});

test("takeover: when a node's life runs out every lease bound to it is free at once, the previous holder reported not released, with its file", async () => {
  const keys = [fresh(), fresh()];
  const old = await mustAcquire(a, keys[0] as string, "n3", "/s/t.jsonl");
  await mustAcquire(a, keys[1] as string, "n3");
  await expire("n3");
  assert.equal((await b.readMany(keys)).size, 0, "read as free");
  const taken = await mustAcquire(b, keys[0] as string, "n2");
  assert.equal(taken.lease.fence, old.lease.fence + 1);
  const { since, ...previous } = taken.previous?.lease ?? { since: undefined };
  assert.ok(typeof since === "number" && Math.abs(since - Date.now()) < 60_000, "acquired at");
  assert.deepEqual(taken.previous && { ...taken.previous, lease: { ...previous, expiresAt: 0 } }, {
    released: false,
    lease: {
      node: "n3",
      url: "http://n3.internal",
      fence: 1,
      life: old.lease.life,
      file: "/s/t.jsonl",
      expiresAt: 0,
    },
  });
  assert.equal((await mustAcquire(b, keys[1] as string, "n2")).previous?.released, false);
});

test("stale: after its life ran out a node can neither record, release nor take anything under it; a new life can", async () => {
  const key = fresh();
  const old = (await mustAcquire(a, key, "n4", "/s/z.jsonl")).lease;
  await expire("n4");
  const current = (await mustAcquire(b, key, "n2", "/s/z.fenced.jsonl")).lease;
  assert.equal(await a.record(key, old, "/s/zombie.jsonl"), undefined);
  assert.equal(await a.release(key, old), false);
  const other = fresh();
  assert.deepEqual(await a.acquire(other, "n4", old.life, "http://n4.internal"), {
    acquired: false,
    lifeOver: true,
  });
  // The holder's name with a stale fence is refused too: the fence, not the name, is the owner.
  assert.equal(await b.record(key, { ...current, fence: old.fence }, "/s/x.jsonl"), undefined);
  const held = await b.read(key);
  assert.equal(held?.fence, current.fence);
  assert.equal(held?.file, "/s/z.fenced.jsonl");
  assert.equal((await b.last(key))?.lease.file, "/s/z.fenced.jsonl");
  assert.ok((await mustAcquire(a, other, "n4")).acquired, "a new life takes leases again");
});

test("a node takes back its own lease it no longer keeps (a release that failed) as a takeover", async () => {
  const key = fresh();
  const first = (await mustAcquire(a, key, "n6", "/s/own.jsonl")).lease;
  const again = await mustAcquire(a, key, "n6");
  assert.equal(again.lease.fence, first.fence + 1);
  assert.equal(again.previous?.released, false, "its file gets the storage fence");
});

test("two contenders racing over many rounds never both hold, and every acquire raises the fence", async () => {
  const key = fresh();
  let lastFence = 0;
  for (let round = 0; round < 50; round++) {
    const [l1, l2] = [await live(a, "n1"), await live(b, "n2")];
    const [x, y] = await Promise.all([
      a.acquire(key, "n1", l1, "http://n1.internal"),
      b.acquire(key, "n2", l2, "http://n2.internal"),
    ]);
    const winners = [x, y].filter((r) => r.acquired);
    assert.equal(winners.length, 1, `round ${round}: exactly one holder`);
    const won = winners[0] as Extract<typeof x, { acquired: true }>;
    assert.ok(
      won.lease.fence > lastFence,
      `round ${round}: fence ${won.lease.fence} > ${lastFence}`,
    );
    lastFence = won.lease.fence;
    const loser = x.acquired ? y : x;
    assert.equal(loser.acquired === false && loser.holder?.fence, won.lease.fence);
    // Half the rounds end with a release, half with the holder's life running out.
    if (round % 2 === 0) assert.ok(await (x.acquired ? a : b).release(key, won.lease));
    else await expire(won.lease.node);
  }
});

test("readMany: answers the held keys only, in one call", async () => {
  const held = [fresh(), fresh()];
  const free = fresh();
  const leases: Lease[] = [];
  for (const key of held) leases.push((await mustAcquire(a, key, "n1")).lease);
  const map = await b.readMany([...held, free]);
  assert.deepEqual([...map.keys()].sort(), [...held].sort());
  assert.equal(map.get(held[1] as string)?.fence, leases[1]?.fence);
  assert.equal((await b.readMany([])).size, 0);
});

test("list: every lease held now, with its holder, fence, acquisition time and time left; none released or of a life that ran out", async () => {
  const held = [fresh(), fresh()];
  const gone = fresh();
  const dead = fresh();
  for (const key of held) await mustAcquire(a, key, "n1", `/s/${key}.jsonl`);
  const released = await mustAcquire(a, gone, "n1");
  assert.ok(await a.release(gone, released.lease));
  await mustAcquire(a, dead, "n7");
  await expire("n7");
  const listed = (await b.list()).filter((h) => [...held, gone, dead].includes(h.key));
  assert.deepEqual(listed.map((h) => h.key).sort(), [...held].sort());
  for (const { key, lease, expiresInMs } of listed) {
    assert.equal(lease.node, "n1");
    assert.equal(lease.file, `/s/${key}.jsonl`);
    assert.ok(lease.fence >= 1);
    assert.ok(expiresInMs > 0 && expiresInMs <= a.ttlMs, `${expiresInMs}`);
    assert.ok(typeof lease.since === "number" && lease.since <= Date.now() + 1000);
  }
});

test("an unreachable store rejects within its timeout instead of hanging", async () => {
  const store = await connectRedisLeaseStore(redis.url, { timeoutMs: 200 });
  redis.pause();
  try {
    await assert.rejects(store.ping());
    await assert.rejects(store.acquire(fresh(), "n1", "life", "http://n1.internal"));
  } finally {
    redis.resume();
  }
  await store.ping();
  await store.close();
});
