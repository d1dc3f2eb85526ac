import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  type ConnectionState,
  type ConnectionStateEvent,
  createWebSocketTransport,
  WebSocketCloseError,
  type WebSocketConstructor,
  type WebSocketTransport,
} from "../../../src/index.ts";
import { type FrameReader, frameReader } from "../../support/frame-reader.ts";
import { FakeBridge, socketClass } from "../../support/ws-fake-bridge.ts";

const FAST = { initialDelayMs: 10, maxDelayMs: 40, factor: 2, jitter: 0.5 };
let Socket: WebSocketConstructor;

before(async () => {
  Socket = await socketClass();
});

function open(
  bridge: FakeBridge,
  extra: Partial<Parameters<typeof createWebSocketTransport>[0]> = {},
) {
  const transport = createWebSocketTransport({
    url: bridge.url,
    token: FakeBridge.token,
    reconnect: FAST,
    WebSocket: Socket,
    ...extra,
  });
  const states: ConnectionState[] = [];
  transport.addEventListener("statechange", (event) => {
    states.push((event as ConnectionStateEvent).state);
  });
  return { transport, states, reader: frameReader(transport.readable) };
}

function waitForState(
  transport: WebSocketTransport,
  status: ConnectionState["status"],
  ms = 5000,
): Promise<ConnectionState> {
  if (transport.state.status === status) return Promise.resolve(transport.state);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${status} state within ${ms} ms`)), ms);
    const listener = (): void => {
      if (transport.state.status !== status) return;
      clearTimeout(timer);
      transport.removeEventListener("statechange", listener);
      resolve(transport.state);
    };
    transport.addEventListener("statechange", listener);
  });
}

async function read(reader: FrameReader): Promise<unknown> {
  const { value, done } = await reader.read();
  assert.equal(done, false);
  assert.equal(typeof value, "string");
  return JSON.parse(value as string);
}

async function write(transport: WebSocketTransport, record: unknown): Promise<void> {
  const writer = transport.writable.getWriter();
  try {
    await writer.write(`${JSON.stringify(record)}\n`);
  } finally {
    writer.releaseLock();
  }
}

describe("websocket transport", () => {
  let bridge: FakeBridge;
  before(async () => {
    bridge = await FakeBridge.start();
  });
  after(async () => {
    await bridge.close();
  });

  test("the token travels as a subprotocol, never in the URL; records flow one per message", async () => {
    const { transport, states, reader } = open(bridge);
    assert.equal(transport.state.status, "connecting");
    const state = await waitForState(transport, "open");
    assert.deepEqual(state, { status: "open", generation: 1, protocol: "pi-kit.v1" });
    const upgrade = bridge.upgrades.at(-1);
    assert.match(upgrade?.url ?? "", /^\/sessions\/main\/ws\?viewer=[0-9a-f]{32}$/);
    assert.deepEqual(upgrade?.protocols, ["pi-kit.v1", `pi-kit.token.${FakeBridge.token}`]);
    assert.ok(!upgrade?.url.includes(FakeBridge.token));

    await write(transport, { type: "get_state", id: "a" });
    const answer = (await read(reader)) as { id: string; command: string };
    assert.equal(answer.id, "a");
    assert.equal(answer.command, "get_state");
    // The LF of encodeRecord is not sent: one record per text message.
    assert.equal(bridge.received.at(-1)?.[0], '{"type":"get_state","id":"a"}');

    reader.releaseLock();
    assert.deepEqual(await transport.close(), { reason: "closed" });
    assert.deepEqual(
      states.map((s) => s.status),
      ["open", "closed"],
    );
  });

  test("the viewer key is the same on every socket of a transport: random unless given, never another transport's", async () => {
    const viewerOf = () =>
      new URL(`http://x${bridge.upgrades.at(-1)?.url}`).searchParams.get("viewer");
    const first = open(bridge).transport;
    await waitForState(first, "open");
    const key = viewerOf();
    bridge.drop();
    await waitForState(first, "reconnecting");
    bridge.accepting = true;
    await waitForState(first, "open");
    assert.equal(viewerOf(), key, "a reconnect presents the same key");
    await first.close();
    const second = open(bridge).transport;
    await waitForState(second, "open");
    assert.notEqual(viewerOf(), key, "another transport is another viewer");
    await second.close();
    const kept = open(bridge, { viewerKey: "kept-in-session-storage" }).transport;
    await waitForState(kept, "open");
    assert.equal(viewerOf(), "kept-in-session-storage");
    await kept.close();
  });

  test("a token in the URL, or one a subprotocol cannot carry, is refused up front", () => {
    assert.throws(
      () => createWebSocketTransport({ url: `${bridge.url}?token=x`, WebSocket: Socket }),
      TypeError,
    );
    assert.throws(
      () => createWebSocketTransport({ url: bridge.url, token: "a b=", WebSocket: Socket }),
      TypeError,
    );
    assert.throws(
      () => createWebSocketTransport({ url: "ftp://example.com/x", WebSocket: Socket }),
      TypeError,
    );
  });

  test("a drop reconnects with backoff; readable stays open and the reconnect sits between the two sockets' records", async () => {
    const { transport, states, reader } = open(bridge);
    await waitForState(transport, "open");
    const order: string[] = [];
    transport.onReconnect((info) => order.push(`reconnect ${info.generation}`));
    bridge.send({ type: "agent_start" });
    order.push(((await read(reader)) as { type: string }).type);

    bridge.drop();
    const reconnecting = await waitForState(transport, "reconnecting");
    assert.equal(reconnecting.status === "reconnecting" && reconnecting.lastClose.code, 1006);
    // Written while disconnected: waits for the next socket instead of failing.
    const pending = write(transport, { type: "get_state", id: "gap" });
    await new Promise((resolve) => setTimeout(resolve, 60));
    bridge.accepting = true;
    const reopened = await waitForState(transport, "open");
    assert.equal(reopened.status === "open" && reopened.generation, 2);
    assert.equal(transport.generation, 2);
    await pending;
    const answer = (await read(reader)) as { id: string };
    order.push(`response ${answer.id}`);
    assert.deepEqual(order, ["agent_start", "reconnect 2", "response gap"]);

    const statuses = states.map((s) => s.status);
    assert.equal(statuses[0], "open");
    assert.equal(statuses.at(-1), "open");
    assert.ok(statuses.filter((s) => s === "reconnecting").length >= 2, statuses.join(","));
    // Refused attempts grow the delay, within the jitter bounds.
    for (const s of states) {
      if (s.status !== "reconnecting") continue;
      const base = Math.min(FAST.maxDelayMs, FAST.initialDelayMs * FAST.factor ** (s.attempt - 1));
      assert.ok(
        s.delayMs >= base * (1 - FAST.jitter) - 1 && s.delayMs <= base,
        `${s.delayMs} vs ${base}`,
      );
    }
    reader.releaseLock();
    await transport.close();
  });

  test("pi's exit (4000) is final: closed as exit with the code, signal and stderr tail, no reconnect", async () => {
    const { transport, reader } = open(bridge);
    await waitForState(transport, "open");
    const upgrades = bridge.upgrades.length;
    bridge.send({ type: "agent_start" });
    bridge.closeWith(4000, JSON.stringify({ exitCode: 3, signal: null, stderrTail: "boom" }));
    const info = await transport.closed;
    assert.deepEqual(info, { reason: "exit", exitCode: 3, signal: null, stderrTail: "boom" });
    assert.deepEqual(transport.state, { status: "closed", closeInfo: info });
    // Records already received are still read, then the stream ends.
    assert.deepEqual(await read(reader), { type: "agent_start" });
    assert.equal((await reader.read()).done, true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(bridge.upgrades.length, upgrades);
    await assert.rejects(write(transport, { type: "get_state" }));
  });

  test("policy closes are final errors; a normal close by the bridge is eof", async () => {
    const limited = open(bridge);
    await waitForState(limited.transport, "open");
    bridge.closeWith(1008, '{"reason":"rate_limit"}');
    const info = await limited.transport.closed;
    assert.equal(info.reason, "error");
    assert.ok(info.error instanceof WebSocketCloseError);
    assert.equal(info.error.code, 1008);

    const replaced = open(bridge);
    await waitForState(replaced.transport, "open");
    bridge.closeWith(4002, '{"reason":"replaced"}');
    assert.equal(((await replaced.transport.closed).error as WebSocketCloseError).code, 4002);

    const normal = open(bridge);
    await waitForState(normal.transport, "open");
    bridge.closeWith(1000, "session ended");
    assert.deepEqual(await normal.transport.closed, { reason: "eof" });
  });

  test("a 401 before the upgrade is final where the status is visible (ws)", async () => {
    const { WebSocket: WS } = await import("ws");
    const refused = open(bridge, { token: "wrong", WebSocket: WS });
    const info = await refused.transport.closed;
    assert.equal(info.reason, "error");
    assert.match(String((info.error as Error).message), /HTTP 401/);
  });

  test("gives up after maxAttempts failed attempts", async () => {
    const { transport, states } = open(bridge, {
      reconnect: { ...FAST, maxAttempts: 2 },
    });
    await waitForState(transport, "open");
    bridge.drop();
    const info = await transport.closed;
    bridge.accepting = true;
    assert.equal(info.reason, "error");
    assert.match(String((info.error as Error).message), /gave up reconnecting after 2 attempts/);
    assert.deepEqual(
      states
        .filter((s) => s.status === "reconnecting")
        .map((s) => s.status === "reconnecting" && s.attempt),
      [1, 2],
    );
  });

  test("reconnect: false closes on the first drop; an aborted signal closes", async () => {
    const once = open(bridge, { reconnect: false });
    await waitForState(once.transport, "open");
    bridge.drop();
    const info = await once.transport.closed;
    bridge.accepting = true;
    assert.equal(info.reason, "error");

    const controller = new AbortController();
    const aborted = open(bridge, { signal: controller.signal });
    await waitForState(aborted.transport, "open");
    controller.abort();
    assert.deepEqual(await aborted.transport.closed, { reason: "closed" });
    assert.equal((await aborted.reader.read()).done, true);
  });

  test("reconnect() skips the wait, or replaces an open socket", async () => {
    const { transport } = open(bridge, {
      reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 },
    });
    await waitForState(transport, "open");
    transport.reconnect();
    const state = await waitForState(transport, "open");
    assert.equal(state.status === "open" && state.generation, 2);
    bridge.drop();
    await waitForState(transport, "reconnecting");
    bridge.accepting = true;
    transport.reconnect();
    const again = await waitForState(transport, "open");
    assert.equal(again.status === "open" && again.generation, 3);
    await transport.close();
  });
});
