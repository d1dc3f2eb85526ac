/**
 * The Redis lease store against a real redis-server: one holder at a time, a larger fence on every
 * acquire, compare-and-renew and compare-and-delete that refuse a stale fence, and a takeover of
 * an expired lease told apart from taking a released one.
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

/** What Redis does when a lease runs out unrenewed: the key goes, nobody released it. */
async function expire(key: string): Promise<void> {
  assert.equal(await raw.del(`pikit:lease:${key}`), 1);
}

async function mustAcquire(store: RedisLeaseStore, key: string, node: string, file?: string) {
  const result = await store.acquire(key, node, `http://${node}.internal`, file);
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
  assert.equal(first.previous, undefined);
  const second = await b.acquire(key, "n2", "http://n2.internal");
  assert.equal(second.acquired, false);
  assert.equal(second.acquired === false && second.holder?.node, "n1");
  assert.ok(second.acquired === false && (second.holder?.expiresAt ?? 0) > Date.now());
  assert.deepEqual({ ...(await b.read(key)), expiresAt: 0 }, { ...first.lease, expiresAt: 0 });
  const pttl = await raw.pTTL(`pikit:lease:${key}`);
  assert.ok(pttl > 0 && pttl <= a.ttlMs, `PX set from the TTL (pttl ${pttl})`);
});

test("renew: the holder extends its lease and records a new file in the lease and the last record", async () => {
  const key = fresh();
  const { lease } = await mustAcquire(a, key, "n1", "/s/old.jsonl");
  await raw.pExpire(`pikit:lease:${key}`, 2_000);
  const renewed = await a.renew(key, lease, "/s/new.jsonl");
  assert.ok(renewed);
  assert.equal(renewed.fence, lease.fence);
  assert.equal(renewed.file, "/s/new.jsonl");
  assert.ok((await raw.pTTL(`pikit:lease:${key}`)) > 2_000, "renewed for a whole TTL");
  assert.equal((await b.read(key))?.file, "/s/new.jsonl");
  assert.equal((await b.last(key))?.lease.file, "/s/new.jsonl");
  const again = await a.renew(key, renewed);
  assert.equal(again?.file, "/s/new.jsonl", "a renew without a file keeps the recorded one");
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

test("takeover: taking an expired lease reports the previous holder as not released, with its file", async () => {
  const key = fresh();
  const old = await mustAcquire(a, key, "n1", "/s/t.jsonl");
  await expire(key);
  const taken = await mustAcquire(b, key, "n2");
  assert.equal(taken.lease.fence, old.lease.fence + 1);
  const { since, ...previous } = taken.previous?.lease ?? { since: undefined };
  assert.ok(typeof since === "number" && Math.abs(since - Date.now()) < 60_000, "acquired at");
  assert.deepEqual(taken.previous && { ...taken.previous, lease: { ...previous, expiresAt: 0 } }, {
    released: false,
    lease: { node: "n1", url: "http://n1.internal", fence: 1, file: "/s/t.jsonl", expiresAt: 0 },
  });
});

test("stale fence: the old holder's renew and release are refused after a takeover, and leave the new lease alone", async () => {
  const key = fresh();
  const old = (await mustAcquire(a, key, "n1", "/s/z.jsonl")).lease;
  await expire(key);
  const current = (await mustAcquire(b, key, "n2", "/s/z.fenced.jsonl")).lease;
  assert.equal(await a.renew(key, old, "/s/zombie.jsonl"), undefined);
  assert.equal(await a.release(key, old), false);
  // The same node name with a stale fence is refused too: the fence, not the name, is the owner.
  assert.equal(await a.renew(key, { ...current, fence: old.fence }), undefined);
  const held = await b.read(key);
  assert.equal(held?.fence, current.fence);
  assert.equal(held?.file, "/s/z.fenced.jsonl");
  assert.equal((await b.last(key))?.lease.file, "/s/z.fenced.jsonl");
  assert.ok(await b.renew(key, current));
});

test("two contenders racing over many rounds never both hold, and every acquire raises the fence", async () => {
  const key = fresh();
  let lastFence = 0;
  for (let round = 0; round < 50; round++) {
    const [x, y] = await Promise.all([
      a.acquire(key, "n1", "http://n1.internal"),
      b.acquire(key, "n2", "http://n2.internal"),
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
    // Half the rounds end with a release, half with an expiry.
    if (round % 2 === 0) assert.ok(await (x.acquired ? a : b).release(key, won.lease));
    else await expire(key);
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

test("list: every lease held now, with its holder, fence, acquisition time and time left; none released or expired", async () => {
  const held = [fresh(), fresh()];
  const gone = fresh();
  for (const key of held) await mustAcquire(a, key, "n1", `/s/${key}.jsonl`);
  const released = await mustAcquire(a, gone, "n1");
  assert.ok(await a.release(gone, released.lease));
  const listed = (await b.list()).filter((h) => [...held, gone].includes(h.key));
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
    await assert.rejects(store.acquire(fresh(), "n1", "http://n1.internal"));
  } finally {
    redis.resume();
  }
  await store.ping();
  await store.close();
});
