import assert from "node:assert/strict";
import { test } from "node:test";
import { resolveBackoff } from "../../../src/transports/websocket/backoff.ts";
import { WebSocketCloseError } from "../../../src/transports/websocket/connection-state.ts";
import {
  type NextAttempt,
  ReconnectAttempts,
} from "../../../src/transports/websocket/reconnect-attempts.ts";

const drop = { code: 1006, reason: "" };
const noJitter = { initialDelayMs: 100, maxDelayMs: 1000, factor: 2, jitter: 0 };

function clock(): { now: () => number; advance(ms: number): void } {
  let time = 0;
  return { now: () => time, advance: (ms) => (time += ms) };
}

test("reconnect attempts: counted and spaced until one stays open 2 s, then counted from 1 again", () => {
  const time = clock();
  const attempts = new ReconnectAttempts(resolveBackoff(noJitter), time.now);
  const next = (): NextAttempt => attempts.next(drop) as NextAttempt;
  assert.deepEqual(next(), { attempt: 1, delayMs: 100 });
  assert.deepEqual(next(), { attempt: 2, delayMs: 200 });
  // Open, then closed at once: a flapping bridge backs off further.
  attempts.opened();
  time.advance(1999);
  assert.deepEqual(next(), { attempt: 3, delayMs: 400 });
  attempts.opened();
  time.advance(2000);
  assert.deepEqual(next(), { attempt: 1, delayMs: 100 });
  // A requested reconnect is attempt 1, and the socket it replaced counts for nothing.
  attempts.opened();
  time.advance(5000);
  attempts.restart();
  assert.deepEqual(next(), { attempt: 2, delayMs: 200 });
  attempts.opened();
  time.advance(5000);
  attempts.replaced();
  assert.deepEqual(next(), { attempt: 3, delayMs: 400 });
});

test("reconnect attempts: give up after maxAttempts, or at the first drop when reconnecting is off", () => {
  const limited = new ReconnectAttempts(resolveBackoff({ ...noJitter, maxAttempts: 2 }));
  limited.next(drop);
  limited.next(drop);
  const gaveUp = limited.next({ code: 1012, reason: "restart" });
  assert.ok(gaveUp instanceof WebSocketCloseError);
  assert.equal(gaveUp.message, "gave up reconnecting after 2 attempts (last close code 1012)");
  assert.equal(gaveUp.code, 1012);

  const off = new ReconnectAttempts(resolveBackoff({ maxAttempts: 0 }));
  const error = off.next(drop);
  assert.ok(error instanceof WebSocketCloseError);
  assert.equal(error.message, "the connection dropped (code 1006) and reconnecting is off");
});

test("reconnect attempts: the jitter comes from the random source given", () => {
  const backoff = resolveBackoff({ ...noJitter, jitter: 0.5 });
  const attempts = new ReconnectAttempts(backoff, Date.now, () => 0.5);
  assert.deepEqual(attempts.next(drop), { attempt: 1, delayMs: 75 });
});
