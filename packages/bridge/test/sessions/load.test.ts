import assert from "node:assert/strict";
import { type Socket, connect as tcpConnect } from "node:net";
import { test } from "node:test";

import { connect, type Rec, sleep, startBridge, type TestBridge, until } from "../helpers.ts";

/**
 * Words the stalled client's answer has. Loopback TCP buffers absorb about 4 MB before the
 * bridge's own socket buffer grows (the sender's buffer autotunes up to tcp_wmem's 4 MiB), so
 * the answer must be bigger than `[[long 5000]]` (1.8 MB of events) to reach the mark at all.
 */
const LONG = 20_000;

const LONG_WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"];

/** The exact text `[[long n]]` streams. */
function longText(count: number): string {
  return `${Array.from({ length: count }, (_, i) => LONG_WORDS[i % LONG_WORDS.length]).join(" ")}.`;
}

test("load: 20 sessions stream at once with no event lost or duplicated", async () => {
  const highWaterMark = 256 * 1024;
  const bridge = await startBridge({ limits: { maxSessions: 24, highWaterMark } });
  try {
    const names = Array.from({ length: 20 }, (_, i) => `load-${i}`);
    const clients = await Promise.all(names.map((name) => connect(bridge, name)));
    const heapBefore = memory();
    await Promise.all(
      clients.map((c) => c.request({ type: "prompt", message: "[[long 300]]" }, 60_000)),
    );
    await Promise.all(clients.map((c) => c.waitFor((r) => r.type === "agent_settled", 60_000)));
    const expected = longText(300);
    for (const [i, client] of clients.entries()) {
      const deltas = client.records.filter(
        (r) =>
          r.type === "message_update" && (r.assistantMessageEvent as Rec).type === "text_delta",
      );
      assert.equal(deltas.length, 300, `session ${i}: ${deltas.length} text deltas`);
      const text = deltas.map((r) => (r.assistantMessageEvent as Rec).delta).join("");
      assert.equal(text, expected, `session ${i}: the deltas rebuild the answer exactly`);
      // Each lifecycle record arrives exactly once, in order.
      const lifecycle = client.records
        .map((r) => r.type)
        .filter((t) => t === "agent_start" || t === "agent_end" || t === "agent_settled");
      assert.deepEqual(lifecycle, ["agent_start", "agent_end", "agent_settled"], `session ${i}`);
      const info = bridge.bridge.sessions.get(names[i] as string)?.info();
      assert.ok((info?.peakBufferedAmount ?? 0) <= highWaterMark + 64 * 1024);
    }
    const grown = memory() - heapBefore;
    assert.ok(grown < 200 * 1024 * 1024, `memory grew ${Math.round(grown / 1e6)} MB`);
    await Promise.all(clients.map((c) => c.close()));
  } finally {
    await bridge.dispose();
  }
});

test("backpressure: a stalled client while pi streams keeps bridge buffers under the high-water mark", async () => {
  const highWaterMark = 128 * 1024;
  const bridge = await startBridge({ limits: { highWaterMark, stallTimeoutMs: 4000 } });
  try {
    const stalled = await stalledClient(bridge, "stall", {
      type: "prompt",
      id: "p",
      message: `[[long ${LONG}]]`,
    });
    const session = () => bridge.bridge.sessions.get("stall");
    // The bridge pauses reading pi once the socket is over the mark…
    await until(() => (session()?.info().pauses ?? 0) > 0, 30_000);
    let peak = 0;
    for (let i = 0; i < 20; i++) {
      peak = Math.max(peak, session()?.info().bufferedAmount ?? 0);
      await sleep(50);
    }
    const info = session()?.info();
    assert.ok(info?.streaming, "pi is still mid-answer: it is blocked, not finished");
    // …and the bytes it holds stay within the mark plus one record.
    const bound = highWaterMark + 16 * 1024;
    assert.ok(
      (info?.peakBufferedAmount ?? 0) <= bound,
      `peak ${info?.peakBufferedAmount} > ${bound}`,
    );
    assert.ok(peak <= bound);

    // Past stallTimeoutMs the client is shed with 1013; pi lives on for a resync.
    await until(() => bridge.log.some((e) => e.event === "connection_stalled"), 15_000);
    await until(() => session()?.attached === false, 5000);
    stalled.destroy();
    const client = await connect(bridge, "stall");
    const state = await client.request({ type: "get_state" }, 30_000);
    assert.equal(state.success, true);
    await until(() => session()?.info().streaming === false, 30_000);
    await client.close();
  } finally {
    await bridge.dispose();
  }
});

/** The resident memory of this process, or the heap where RSS is unavailable. */
function memory(): number {
  const p = (globalThis as { process?: { memoryUsage?: () => { rss: number } } }).process;
  return p?.memoryUsage?.().rss ?? 0;
}

/** A raw WebSocket client that completes the handshake, sends one record and never reads again. */
async function stalledClient(bridge: TestBridge, name: string, record: Rec): Promise<Socket> {
  const url = new URL(bridge.url);
  const socket = tcpConnect(Number(url.port), url.hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  socket.write(
    [
      `GET /sessions/${name}/ws HTTP/1.1`,
      `Host: ${url.host}`,
      "Connection: Upgrade",
      "Upgrade: websocket",
      "Sec-WebSocket-Version: 13",
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
      `Sec-WebSocket-Protocol: pi-kit.v1, pi-kit.token.${bridge.token}`,
      "",
      "",
    ].join("\r\n"),
  );
  await new Promise<void>((resolve, reject) => {
    let head = "";
    const onData = (chunk: Uint8Array): void => {
      head += new TextDecoder().decode(chunk);
      if (!head.includes("\r\n\r\n")) return;
      socket.off("data", onData);
      if (head.startsWith("HTTP/1.1 101")) resolve();
      else reject(new Error(head));
    };
    socket.on("data", onData);
  });
  // Stop reading: the kernel buffers fill, then the bridge's socket buffer, then pi's pipe.
  socket.pause();
  socket.write(maskedTextFrame(JSON.stringify(record)));
  socket.on("error", () => {});
  return socket;
}

/** A client-to-server text frame (clients must mask; a zero mask keeps the payload as is). */
function maskedTextFrame(text: string): Uint8Array {
  const payload = new TextEncoder().encode(text);
  assert.ok(payload.length < 65_536);
  const header =
    payload.length < 126
      ? [0x81, 0x80 | payload.length]
      : [0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff];
  const frame = new Uint8Array(header.length + 4 + payload.length);
  frame.set(header);
  frame.set(payload, header.length + 4);
  return frame;
}
