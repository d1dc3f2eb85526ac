import assert from "node:assert/strict";
import { test } from "node:test";
import type { Offer } from "../../../src/transports/websocket/protocols.ts";
import { SocketRenewal } from "../../../src/transports/websocket/socket-renewal.ts";
import { UnansweredRequests } from "../../../src/transports/websocket/unanswered-requests.ts";

const part = (value: unknown): string =>
  btoa(JSON.stringify(value)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
/** An offer whose ticket expires at `expSeconds`. */
const offer = (expSeconds: number): Offer => {
  const ticket = `${part({ alg: "HS256" })}.${part({ exp: expSeconds })}.sig`;
  return { protocols: ["pi-kit.v1"], ticket };
};

/** A clock and timers the test moves by hand. */
function manualTime() {
  let time = 0;
  const timers: Array<{ at: number; run: () => void; cancelled: boolean }> = [];
  return {
    now: () => time,
    /** Moves the clock without running timers (a tab that slept). */
    set: (ms: number) => {
      time = ms;
    },
    schedule: (run: () => void, delayMs: number) => {
      const timer = { at: time + delayMs, run, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
    /** The delays of the timers still waiting, from now. */
    pending: () => timers.filter((t) => !t.cancelled).map((t) => t.at - time),
    /** Moves to the next timer and runs it. */
    next: () => {
      const timer = timers.filter((t) => !t.cancelled).sort((a, b) => a.at - b.at)[0];
      assert.ok(timer, "a timer is waiting");
      timers.splice(timers.indexOf(timer), 1);
      time = timer.at;
      timer.run();
    },
  };
}

const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

function renewal(
  expSeconds: number,
  answers: Array<Offer | Error>,
  unanswered = new UnansweredRequests(),
) {
  const time = manualTime();
  const socket = { readyState: 1 };
  const asked: number[] = [];
  const replaced: Offer[] = [];
  const started = SocketRenewal.start(socket, offer(expSeconds), unanswered, {
    fresh: async () => {
      asked.push(time.now());
      const answer = answers.shift();
      if (answer === undefined) return new Promise<Offer>(() => {});
      if (answer instanceof Error) throw answer;
      return answer;
    },
    replace: (fresh) => replaced.push(fresh),
    now: time.now,
    schedule: time.schedule,
  });
  return { time, socket, asked, replaced, renewal: started };
}

test("socket renewal: none for a token without an expiry", () => {
  const time = manualTime();
  const hooks = { fresh: async () => offer(1), replace: () => {}, ...time };
  const unanswered = new UnansweredRequests();
  assert.equal(
    SocketRenewal.start({ readyState: 1 }, { protocols: [] }, unanswered, hooks),
    undefined,
  );
  const plain = { protocols: [], ticket: "a-static-token" };
  assert.equal(SocketRenewal.start({ readyState: 1 }, plain, unanswered, hooks), undefined);
  assert.deepEqual(time.pending(), []);
});

test("socket renewal: a quarter of the ticket's life before it expires, a fresh later ticket replaces the socket", async () => {
  const { time, asked, replaced } = renewal(8, [offer(16)]);
  assert.deepEqual(time.pending(), [6000]);
  time.next();
  await turn();
  assert.deepEqual(asked, [6000]);
  assert.deepEqual(replaced, [offer(16)]);
});

test("socket renewal: a failed or no-later ticket is asked for again at half the time left, until the expiry", async () => {
  const { time, asked, replaced } = renewal(8, [new Error("offline"), offer(8), offer(20)]);
  time.next();
  await turn();
  assert.deepEqual(time.pending(), [1000], "half of the 2 s left");
  time.next();
  await turn();
  assert.deepEqual(time.pending(), [500], "no sooner than 500 ms");
  time.next();
  await turn();
  assert.deepEqual(asked, [6000, 7000, 7500]);
  assert.deepEqual(replaced, [offer(20)]);

  // Past the expiry nothing more is tried: the bridge closes the socket and says why.
  const late = renewal(8, [new Error("offline")]);
  late.time.next();
  late.time.set(8000);
  await turn();
  assert.deepEqual(late.time.pending(), []);
});

test("socket renewal: waits for the socket's unanswered requests, or for half the time left", async () => {
  const unanswered = new UnansweredRequests();
  unanswered.sent('{"type":"bash","id":"a","command":"sleep 9"}');
  const { time, asked, replaced } = renewal(8, [offer(16)], unanswered);
  time.next();
  assert.deepEqual(asked, [], "the answer would be lost with the socket");
  assert.deepEqual(time.pending(), [1000]);
  unanswered.received('{"type":"response","id":"a","command":"bash","success":true}');
  await turn();
  assert.deepEqual(asked, [6000]);
  assert.deepEqual(replaced, [offer(16)]);

  const busy = new UnansweredRequests();
  busy.sent('{"type":"bash","id":"b","command":"sleep 99"}');
  const long = renewal(8, [offer(16)], busy);
  long.time.next();
  long.time.next();
  await turn();
  assert.deepEqual(long.asked, [7000], "a long run is cut off by the expiry anyway");
  assert.deepEqual(long.replaced, [offer(16)]);
});

test("socket renewal: stopped, or on a socket that is not open, it does nothing more", async () => {
  const stopped = renewal(8, [offer(16)]);
  stopped.renewal?.stop();
  assert.deepEqual(stopped.time.pending(), []);

  const answering = renewal(8, [offer(16)]);
  answering.time.next();
  answering.renewal?.stop();
  await turn();
  assert.deepEqual(answering.asked, [6000]);
  assert.deepEqual(answering.replaced, [], "the answer came after the socket went");

  const closing = renewal(8, [offer(16)]);
  closing.socket.readyState = 2;
  closing.time.next();
  await turn();
  assert.deepEqual(closing.asked, []);
});
