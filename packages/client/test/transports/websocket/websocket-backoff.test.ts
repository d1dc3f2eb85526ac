import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  backoffDelay,
  DEFAULT_BACKOFF,
  resolveBackoff,
} from "../../../src/transports/websocket/backoff.ts";

describe("websocket backoff", () => {
  test("grows by factor from the initial delay and is capped", () => {
    const backoff = resolveBackoff({ initialDelayMs: 100, maxDelayMs: 1000, factor: 3, jitter: 0 });
    assert.deepEqual(
      [1, 2, 3, 4, 10].map((attempt) => backoffDelay(attempt, backoff)),
      [100, 300, 900, 1000, 1000],
    );
  });

  test("jitter takes away at most its share, never adds", () => {
    const backoff = resolveBackoff({ initialDelayMs: 200, maxDelayMs: 200, jitter: 0.25 });
    assert.equal(
      backoffDelay(1, backoff, () => 0),
      200,
    );
    assert.equal(
      backoffDelay(1, backoff, () => 0.999_999),
      150,
    );
    for (let i = 0; i < 1000; i++) {
      const delay = backoffDelay(1 + (i % 8), backoff);
      assert.ok(delay >= 150 && delay <= 200, String(delay));
    }
    // Full jitter spreads clients over the whole window.
    const full = resolveBackoff({ initialDelayMs: 1000, maxDelayMs: 1000, jitter: 1 });
    const delays = Array.from({ length: 200 }, () => backoffDelay(1, full));
    assert.ok(Math.min(...delays) < 200 && Math.max(...delays) > 800);
  });

  test("defaults, and out-of-range options are refused", () => {
    assert.deepEqual(resolveBackoff(), DEFAULT_BACKOFF);
    assert.deepEqual(resolveBackoff({ factor: undefined }), DEFAULT_BACKOFF);
    assert.throws(() => resolveBackoff({ jitter: 1.5 }), RangeError);
    assert.throws(() => resolveBackoff({ factor: 0.5 }), RangeError);
    assert.throws(() => resolveBackoff({ initialDelayMs: 500, maxDelayMs: 100 }), RangeError);
    assert.throws(() => resolveBackoff({ maxAttempts: -1 }), RangeError);
  });

  test("the default schedule: well under a second at first, then capped at 1.5 s with jitter", () => {
    const top = (attempt: number) => backoffDelay(attempt, DEFAULT_BACKOFF, () => 0);
    const bottom = (attempt: number) => backoffDelay(attempt, DEFAULT_BACKOFF, () => 0.999_999);
    assert.deepEqual([1, 2, 3, 4, 5, 6, 20].map(top), [100, 200, 400, 800, 1500, 1500, 1500]);
    assert.deepEqual([1, 2, 3, 4, 5, 6, 20].map(bottom), [50, 100, 200, 400, 750, 750, 750]);
    // A bridge that comes back is tried again within 1.5 s, however long it was away.
    for (let attempt = 1; attempt < 200; attempt++) {
      assert.ok(backoffDelay(attempt, DEFAULT_BACKOFF) <= 1500, String(attempt));
    }
    // The first three attempts together stay under a second.
    assert.ok(top(1) + top(2) + top(3) < 1000);
  });
});
