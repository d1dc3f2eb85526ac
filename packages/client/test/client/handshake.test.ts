import assert from "node:assert/strict";
import { test } from "node:test";
import { PiClientError } from "../../src/client/errors.ts";
import { type HandshakeSteps, handshake } from "../../src/client/handshake.ts";
import type { CallOptions } from "../../src/client/pending-requests.ts";
import type { Transport } from "../../src/transports/transport.ts";
import {
  type ConnectionState,
  ConnectionStateEvent,
} from "../../src/transports/websocket/connection-state.ts";

/** A transport the handshake only looks at: a plain one, or a reconnecting one with a state. */
function transport(reconnecting = false): Transport & EventTarget & { state?: ConnectionState } {
  const target = new EventTarget() as Transport & EventTarget & { state?: ConnectionState };
  if (reconnecting) {
    Object.assign(target, {
      state: { status: "connecting" },
      generation: 0,
      onReconnect: () => () => {},
    });
  }
  return target;
}

/** Steps that record their calls; `getState` waits until the test answers or the signal aborts. */
function steps(overrides: Partial<HandshakeSteps> = {}) {
  const calls: string[] = [];
  const step =
    (name: string) =>
    async (options?: CallOptions): Promise<void> => {
      calls.push(name);
      if (options !== undefined) assert.equal(typeof options.timeoutMs, "number");
    };
  const all: HandshakeSteps = {
    getState: step("get_state"),
    detect: step("detect"),
    resync: step("resync"),
    close: step("close"),
    ...overrides,
  };
  return { calls, steps: all };
}

/** A step that answers only by failing when its signal aborts (pi never answers). */
const never = async (options: CallOptions): Promise<void> =>
  new Promise((_, reject) =>
    options.signal?.addEventListener("abort", () => reject(options.signal?.reason)),
  );

test("handshake: pi's state, its capabilities, then the session when the transport reconnects", async () => {
  const plain = steps();
  await handshake(transport(), {}, plain.steps);
  assert.deepEqual(plain.calls, ["get_state", "detect"]);

  const shared = steps({ detect: undefined });
  await handshake(transport(true), {}, shared.steps);
  assert.deepEqual(shared.calls, ["get_state", "resync"], "given capabilities are not probed");

  const asked = steps();
  await handshake(transport(), { resync: true }, asked.steps);
  assert.deepEqual(asked.calls, ["get_state", "detect", "resync"]);
});

test("handshake: pi that never answers times out naming connect, and the client is closed", async () => {
  const { calls, steps: s } = steps({ getState: never });
  await assert.rejects(
    handshake(transport(), { handshakeTimeoutMs: 20 }, s),
    (e) =>
      e instanceof PiClientError &&
      e.code === "timeout" &&
      e.message === "connect timed out after 20 ms waiting for pi to answer the handshake",
  );
  assert.deepEqual(calls, ["close"]);
});

test("handshake: a failed step names connect and the step; the caller's signal makes it cancelled", async () => {
  const failing = steps({
    resync: async () => {
      throw new Error("no messages");
    },
  });
  await assert.rejects(
    handshake(transport(), { resync: true }, failing.steps),
    (e) =>
      e instanceof PiClientError &&
      e.command === "connect" &&
      e.message === "connect: loading the session failed: Error: no messages",
  );
  assert.ok(failing.calls.includes("close"));

  const caller = new AbortController();
  caller.abort(new Error("left"));
  const cancelled = steps();
  await assert.rejects(
    handshake(transport(), { signal: caller.signal }, cancelled.steps),
    (e) => e instanceof PiClientError && e.code === "cancelled",
  );
  assert.deepEqual(cancelled.calls, ["close"]);
});

test("handshake: a bridge that is down fails it at once as bridge_unreachable", async () => {
  const socket = transport(true);
  const { calls, steps: s } = steps({ getState: never });
  const running = handshake(socket, { handshakeTimeoutMs: 3_600_000 }, s);
  socket.state = {
    status: "reconnecting",
    attempt: 1,
    delayMs: 100,
    lastClose: { code: 1006, reason: "connect ECONNREFUSED" },
  };
  socket.dispatchEvent(new ConnectionStateEvent(socket.state));
  await assert.rejects(
    running,
    (e) =>
      e instanceof PiClientError &&
      e.code === "bridge_unreachable" &&
      /unreachable \(connect ECONNREFUSED\)/.test(e.message),
  );
  assert.deepEqual(calls, ["close"]);
});
