/**
 * The lease keeper against a real redis-server: it keeps leases alive past their TTL, fences a
 * lease (calls onLost) before Redis would let it go when Redis freezes (SIGSTOP), reports the
 * store unreachable meanwhile, and gives a lease up when another bridge holds it.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createClient } from "redis";
import { LeaseKeeper, type LeaseLostReason } from "../../src/cluster/lease-keeper.ts";
import type { Lease, LeaseStore } from "../../src/cluster/lease-store.ts";
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

/** The store, with a hook called after every renew it answers (the keeper's rounds, as events). */
function watched(inner: LeaseStore, onRenew: (key: string, lease: Lease | undefined) => void) {
  return Object.assign(Object.create(inner) as LeaseStore, {
    ttlMs: inner.ttlMs,
    async renew(key: string, held: Lease, file?: string) {
      const renewed = await inner.renew(key, held, file);
      onRenew(key, renewed);
      return renewed;
    },
    ping: () => inner.ping(),
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

async function acquire(key: string, node = "n1") {
  const sentAt = performance.now();
  const result = await store.acquire(key, node, `http://${node}.internal`);
  assert.ok(result.acquired);
  return { lease: result.lease, sentAt };
}

test("keeper: renews every third of the TTL, so a lease outlives several TTLs", async () => {
  const key = fresh();
  const lost: string[] = [];
  let renews = 0;
  const done = signal<void>();
  const keeper = new LeaseKeeper(
    watched(store, (k, renewed) => {
      assert.equal(k, key);
      assert.ok(renewed, "every renew succeeds");
      if (++renews === 7) done.resolve();
    }),
    { onLost: (k) => lost.push(k) },
  );
  const started = performance.now();
  const { lease, sentAt } = await acquire(key);
  keeper.keep(key, lease, sentAt);
  await done.promise;
  keeper.close();
  assert.ok(performance.now() - started > 2 * TTL_MS, "ran past two TTLs");
  assert.deepEqual(lost, []);
  assert.equal((await store.read(key))?.fence, lease.fence, "still held with its fence");
});

test("keeper: with Redis frozen (SIGSTOP) it fences the lease before the TTL since the last renew, and reports the store unreachable", async () => {
  const key = fresh();
  /** When the last successful renew was sent. */
  let lastRenewSent = 0;
  const renewed = signal<void>();
  const lost = signal<{ key: string; reason: LeaseLostReason; at: number }>();
  const reachability: boolean[] = [];
  const inner = store;
  const wrapped = Object.assign(Object.create(inner) as LeaseStore, {
    ttlMs: inner.ttlMs,
    async renew(k: string, held: Lease, file?: string) {
      const sentAt = performance.now();
      const result = await inner.renew(k, held, file);
      lastRenewSent = sentAt;
      renewed.resolve();
      return result;
    },
    ping: () => inner.ping(),
  });
  const keeper = new LeaseKeeper(wrapped, {
    onLost: (k, reason) => lost.resolve({ key: k, reason, at: performance.now() }),
    onReachability: (r) => reachability.push(r),
  });
  const { lease, sentAt } = await acquire(key);
  keeper.keep(key, lease, sentAt);
  await renewed.promise;
  redis.pause();
  try {
    const fenced = await lost.promise;
    assert.equal(fenced.key, key);
    assert.equal(fenced.reason, "expired");
    const since = fenced.at - lastRenewSent;
    assert.ok(
      since < TTL_MS,
      `fenced ${Math.round(since)} ms after the last renew was sent, before the TTL`,
    );
    assert.deepEqual(reachability, [false], "the store was reported unreachable");
    assert.equal(keeper.reachable, false);
    assert.equal(keeper.leases.size, 0);
  } finally {
    redis.resume();
    keeper.close();
  }
});

test("keeper: a lease another bridge took is reported taken at the next renew", async () => {
  const key = fresh();
  const lost = signal<LeaseLostReason>();
  const keeper = new LeaseKeeper(store, { onLost: (_k, reason) => lost.resolve(reason) });
  const { lease, sentAt } = await acquire(key);
  keeper.keep(key, lease, sentAt);
  await raw.del(`pikit:lease:${key}`);
  assert.ok((await store.acquire(key, "n2", "http://n2.internal")).acquired);
  assert.equal(await lost.promise, "taken");
  keeper.close();
  assert.equal((await store.read(key))?.node, "n2");
});

test("keeper: record writes the resumable file into the lease; forget stops renewing a key", async () => {
  const kept = fresh();
  const forgotten = fresh();
  const renewedKeys: string[] = [];
  /** The next renew of `kept` by the keeper's timer, once set. */
  let round: ReturnType<typeof signal<void>> | undefined;
  const keeper = new LeaseKeeper(
    watched(store, (k) => {
      renewedKeys.push(k);
      if (k === kept) round?.resolve();
    }),
    { onLost: () => assert.fail("nothing is lost") },
  );
  for (const key of [kept, forgotten]) {
    const { lease, sentAt } = await acquire(key);
    keeper.keep(key, lease, sentAt);
  }
  const recorded = await keeper.record(kept, "/s/fenced.jsonl");
  assert.equal(recorded.file, "/s/fenced.jsonl");
  assert.equal((await store.read(kept))?.file, "/s/fenced.jsonl");
  keeper.forget(forgotten);
  renewedKeys.length = 0;
  round = signal<void>();
  await round.promise;
  keeper.close();
  assert.deepEqual(renewedKeys, [kept]);
  await assert.rejects(keeper.record(forgotten, "/s/x.jsonl"), /No lease kept/);
});

test("keeper: with no leases it pings, and reports the store unreachable and back", async () => {
  const changes: boolean[] = [];
  const down = signal<void>();
  const up = signal<void>();
  const keeper = new LeaseKeeper(store, {
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
  keeper.close();
  assert.deepEqual(changes, [false, true]);
});

test("keeper: holds() is false once the deadline passes by its clock, before the deadline's timer runs (a thawed node writes nothing)", () => {
  let now = 0;
  const fake = { ttlMs: 3000 } as LeaseStore;
  const keeper = new LeaseKeeper(fake, {
    onLost: () => {},
    now: () => now,
    renewEveryMs: 3_600_000,
  });
  try {
    const lease = { fence: 1 } as Lease;
    keeper.keep("s", lease, 0);
    assert.equal(keeper.holds("s"), true);
    assert.equal(keeper.holds("other"), false, "a lease it does not keep");
    // Frozen past the deadline (TTL less the margin): the timer has not run, holds() says no.
    now = 3000 - 3000 / 5;
    assert.equal(keeper.holds("s"), false);
  } finally {
    keeper.close();
  }
});
