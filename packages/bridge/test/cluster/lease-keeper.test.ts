/**
 * The lease keeper against a real redis-server: one renew of its node's life a round keeps every
 * lease alive past the TTL; when Redis freezes (SIGSTOP) it fences every lease (calls onLost)
 * before Redis would let the life go, and reports the store unreachable meanwhile; a life that
 * ran out in Redis loses its leases and a new life begins; a lease another bridge holds is given
 * up; and nothing is served past the life's deadline even when its timer runs late.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createClient } from "redis";
import { LeaseKeeper, type LeaseLostReason } from "../../src/cluster/lease-keeper.ts";
import type { LeaseStore } from "../../src/cluster/lease-store.ts";
import {
  connectRedisLeaseStore,
  type RedisLeaseStore,
} from "../../src/cluster/redis-lease-store.ts";
import { startRedis, type TestRedis } from "./redis-server.ts";

/** Short enough for a test, long enough for a loaded 2-core machine to renew in time. */
const TTL_MS = 1800;

let redis: TestRedis;
let store: RedisLeaseStore;
let raw: ReturnType<typeof createClient>;
let count = 0;
const fresh = (): string => `user/keep-${count++}`;

before(async () => {
  redis = await startRedis();
  store = await connectRedisLeaseStore(redis.url, { ttlMs: TTL_MS });
  raw = createClient({ url: redis.url });
  raw.on("error", () => {});
  await raw.connect();
});
after(async () => {
  await Promise.all([store.close(), raw.close()]);
  await redis.stop();
});

/**
 * The store, with a hook called after every renew of a life it answers (the keeper's rounds, as
 * events), with the time it was sent.
 */
function watched(inner: LeaseStore, onRenew: (renewed: boolean, sentAt: number) => void) {
  return Object.assign(Object.create(inner) as LeaseStore, {
    ttlMs: inner.ttlMs,
    async renewLife(node: string, life: string) {
      const sentAt = performance.now();
      const renewed = await inner.renewLife(node, life);
      onRenew(renewed, sentAt);
      return renewed;
    },
    beginLife: (node: string, life: string) => inner.beginLife(node, life),
  });
}

/** A promise and its resolver, for waiting on a callback. */
function signal<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Takes `key` for `keeper`'s node under its life and keeps it. */
async function take(keeper: LeaseKeeper, node: string, key: string) {
  const result = await store.acquire(key, node, await keeper.life(), `http://${node}.internal`);
  assert.ok(result.acquired);
  assert.ok(keeper.keep(key, result.lease));
  return result.lease;
}

test("keeper: one renew of the node's life a round keeps every lease past two TTLs", async () => {
  const keys = [fresh(), fresh(), fresh()];
  const lost: string[] = [];
  let renews = 0;
  const done = signal<void>();
  const keeper = new LeaseKeeper(
    watched(store, (renewed) => {
      assert.ok(renewed, "every renew succeeds");
      if (++renews === 20) done.resolve();
    }),
    { node: "k1", onLost: (k) => lost.push(k) },
  );
  const started = performance.now();
  const leases = [];
  for (const key of keys) leases.push(await take(keeper, "k1", key));
  await done.promise;
  keeper.close();
  const ran = performance.now() - started;
  assert.ok(ran > 2 * TTL_MS, `ran past two TTLs (${Math.round(ran)} ms)`);
  // A round every eighth of the TTL: one renew each, not one per lease (that would be 3 a round).
  assert.ok(renews < (2 * ran) / (TTL_MS / 8), `one renew a round, not one per lease (${renews})`);
  assert.deepEqual(lost, []);
  const held = await store.readMany(keys);
  assert.deepEqual(
    keys.map((k) => held.get(k)?.fence),
    leases.map((l) => l.fence),
  );
});

test("keeper: with Redis frozen (SIGSTOP) it fences every lease before the TTL since the last renew, and reports the store unreachable", async () => {
  const keys = [fresh(), fresh()];
  /** When the last successful renew was sent. */
  let lastRenewSent = 0;
  const renewed = signal<void>();
  const lost: { key: string; reason: LeaseLostReason; at: number }[] = [];
  const allLost = signal<void>();
  const reachability: boolean[] = [];
  const keeper = new LeaseKeeper(
    watched(store, (ok, sentAt) => {
      if (!ok) return;
      lastRenewSent = sentAt;
      renewed.resolve();
    }),
    {
      node: "k2",
      onLost: (key, reason) => {
        lost.push({ key, reason, at: performance.now() });
        if (lost.length === keys.length) allLost.resolve();
      },
      onReachability: (r) => reachability.push(r),
    },
  );
  for (const key of keys) await take(keeper, "k2", key);
  await renewed.promise;
  redis.pause();
  try {
    await allLost.promise;
    assert.deepEqual(lost.map((l) => l.key).sort(), [...keys].sort());
    for (const { reason, at } of lost) {
      assert.equal(reason, "expired");
      const since = at - lastRenewSent;
      assert.ok(since < TTL_MS, `fenced ${Math.round(since)} ms after the last renew was sent`);
    }
    assert.deepEqual(reachability, [false], "the store was reported unreachable");
    assert.equal(keeper.reachable, false);
    assert.equal(keeper.leases.size, 0);
  } finally {
    redis.resume();
    keeper.close();
  }
});

test("keeper: a life that ran out in Redis loses every lease at the next round, and a new life takes leases again", async () => {
  const key = fresh();
  const lost = signal<LeaseLostReason>();
  const keeper = new LeaseKeeper(store, { node: "k3", onLost: (_k, r) => lost.resolve(r) });
  const old = await take(keeper, "k3", key);
  // What Redis does to a node that stalled past its TTL.
  await raw.del("pikit:node:k3");
  assert.equal(await lost.promise, "expired");
  assert.equal(keeper.holds(key), false);
  const next = await keeper.life();
  assert.notEqual(next, old.life);
  const again = await take(keeper, "k3", key);
  assert.equal(again.fence, old.fence + 1);
  keeper.close();
});

test("keeper: record writes the resumable file into the lease; a lease another bridge took is reported taken", async () => {
  const kept = fresh();
  const lost: [string, LeaseLostReason][] = [];
  const keeper = new LeaseKeeper(store, {
    node: "k4",
    onLost: (k, reason) => lost.push([k, reason]),
  });
  const lease = await take(keeper, "k4", kept);
  const recorded = await keeper.record(kept, "/s/fenced.jsonl");
  assert.equal(recorded.file, "/s/fenced.jsonl");
  assert.equal((await store.read(kept))?.file, "/s/fenced.jsonl");
  // Another bridge's lease in its place (as after a release this node missed).
  await raw.set(`pikit:lease:${kept}`, JSON.stringify({ ...lease, fence: lease.fence + 1 }));
  await assert.rejects(keeper.record(kept, "/s/late.jsonl"), /is lost/);
  assert.deepEqual(lost, [[kept, "taken"]]);
  keeper.forget(kept);
  await assert.rejects(keeper.record(kept, "/s/x.jsonl"), /No lease kept/);
  keeper.close();
});

test("keeper: past the life's deadline nothing is held, even before its timer runs", async () => {
  let clock = 0;
  const lost: string[] = [];
  const keeper = new LeaseKeeper(store, {
    node: "k5",
    now: () => clock,
    onLost: (k) => lost.push(k),
  });
  const key = fresh();
  await take(keeper, "k5", key);
  assert.equal(keeper.holds(key), true);
  // A process woken from a freeze: its clock jumped past the deadline, the timer has not run.
  clock += TTL_MS;
  assert.equal(keeper.holds(key), false);
  assert.deepEqual(lost, [key]);
  keeper.close();
});

test("keeper: begins its life by itself, and reports the store unreachable and back", async () => {
  const changes: boolean[] = [];
  const down = signal<void>();
  const up = signal<void>();
  const keeper = new LeaseKeeper(store, {
    node: "k6",
    onLost: () => assert.fail("nothing is kept"),
    onReachability: (reachable) => {
      changes.push(reachable);
      (reachable ? up : down).resolve();
    },
  });
  redis.pause();
  try {
    await down.promise;
  } finally {
    redis.resume();
  }
  await up.promise;
  assert.equal(await raw.exists("pikit:node:k6"), 1, "its life is in Redis");
  keeper.close();
  assert.deepEqual(changes, [false, true]);
});

test("keeper: when its life ends it tells onLifeEnded once, after every lease's onLost, and keeps nothing taken under it afterwards", async () => {
  const keys = [fresh(), fresh()];
  const calls: string[] = [];
  const ended = signal<void>();
  const keeper = new LeaseKeeper(store, {
    node: "k7",
    onLost: (k) => calls.push(`lost ${k}`),
    onLifeEnded: () => {
      calls.push("life ended");
      ended.resolve();
    },
  });
  const old = await take(keeper, "k7", keys[0] as string);
  // An acquire under the life answered after the life ended: nothing of it is kept.
  const life = await keeper.life();
  await take(keeper, "k7", keys[1] as string);
  await raw.del("pikit:node:k7");
  await ended.promise;
  assert.deepEqual(calls.slice(0, 2).sort(), keys.map((k) => `lost ${k}`).sort());
  assert.deepEqual(calls.slice(2), ["life ended"]);
  assert.equal(keeper.keep(keys[0] as string, old), false, "a lease of the ended life");
  assert.equal(keeper.holds(keys[0] as string), false);
  assert.notEqual(await keeper.life(), life, "a new life begins");
  keeper.close();
});
