/**
 * The bridge's keepalive as the WebSocket transport honours it: `bridge_ping` records are
 * consumed (never read as pi's), any record keeps the socket alive, and a socket on which
 * nothing arrives for two ping intervals and a half (a frozen bridge: open, but silent) is
 * dropped and reconnected as after a 1006, with nothing the reader saw lost.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  type ConnectionState,
  createWebSocketTransport,
  type WebSocketConstructor,
  type WebSocketTransport,
} from "../../../src/index.ts";
import { frameReader } from "../../support/frame-reader.ts";
import { FakeBridge, socketClass } from "../../support/ws-fake-bridge.ts";

const FAST = { initialDelayMs: 10, maxDelayMs: 40, factor: 2, jitter: 0.5 };
let Socket: WebSocketConstructor;
let bridge: FakeBridge;

before(async () => {
  Socket = await socketClass();
  bridge = await FakeBridge.start();
});
after(async () => {
  await bridge.close();
});

function nextState(
  transport: WebSocketTransport,
  accept: (state: ConnectionState) => boolean,
): Promise<ConnectionState> {
  return new Promise((resolve) => {
    const listener = (): void => {
      if (!accept(transport.state)) return;
      transport.removeEventListener("statechange", listener);
      resolve(transport.state);
    };
    transport.addEventListener("statechange", listener);
  });
}

test("keepalive: pings are consumed and keep the socket open; two and a half silent intervals drop it, and it reconnects", async () => {
  const transport = createWebSocketTransport({
    url: bridge.url,
    token: FakeBridge.token,
    reconnect: FAST,
    WebSocket: Socket,
  });
  const reader = frameReader(transport.readable);
  try {
    await nextState(transport, (s) => s.status === "open");
    await bridge.whenAttached();
    // A live bridge: a ping every 100 ms of a 1 s interval, for longer than a whole window
    // (2.5 s): only a stall of the test's own timers longer than the window could fail it.
    for (let i = 0; i < 30; i++) {
      bridge.send({ type: "bridge_ping", intervalMs: 1000 });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(
      {
        status: transport.state.status,
        generation: (transport.state as { generation?: number }).generation,
      },
      { status: "open", generation: 1 },
      "a pinging bridge keeps its socket",
    );
    bridge.send({ type: "agent_start" });
    const { value } = await reader.read();
    assert.equal(JSON.parse(value as string).type, "agent_start", "pings never reach the reader");
    // Then silence on an open socket, as from a frozen bridge.
    const silentFrom = performance.now();
    const dropped = await nextState(transport, (s) => s.status === "reconnecting");
    const silentMs = performance.now() - silentFrom;
    assert.equal(dropped.status === "reconnecting" && dropped.lastClose.code, 1006);
    assert.match(
      dropped.status === "reconnecting" ? dropped.lastClose.reason : "",
      /nothing from the bridge for \d+ ms/,
    );
    assert.ok(silentMs >= 2400, `dropped after ${Math.round(silentMs)} ms of silence, not before`);
    const back = await nextState(transport, (s) => s.status === "open");
    assert.equal((back as { generation: number }).generation, 2, "reconnected on its own");
  } finally {
    await transport.close();
  }
});
