/**
 * pi's stderr as `pi_stderr` events: bursts coalesced and bounded in size and rate
 * ({@link StderrBursts}, on a manual clock), from a child process (`onPiStderr`) and from a
 * bridge's `bridge_pi_stderr` records (the WebSocket transport), the same `PiClient` event.
 */
import assert from "node:assert/strict";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import {
  createWebSocketTransport,
  isStderrTransport,
  PiClient,
  type PiStderrEvent,
  type WebSocketConstructor,
} from "../../../src/index.ts";
import { spawnPi } from "../../../src/process.ts";
import {
  type BurstClock,
  StderrBursts,
} from "../../../src/transports/child-process/stderr-bursts.ts";
import { FakeBridge, socketClass } from "../../support/ws-fake-bridge.ts";

/** A clock whose time moves only when the test says. */
class ManualClock implements BurstClock {
  time = 0;
  #timers: { at: number; run: () => void }[] = [];
  now(): number {
    return this.time;
  }
  setTimeout(run: () => void, ms: number): unknown {
    const timer = { at: this.time + ms, run };
    this.#timers.push(timer);
    return timer;
  }
  clearTimeout(timer: unknown): void {
    this.#timers = this.#timers.filter((t) => t !== timer);
  }
  advance(ms: number): void {
    this.time += ms;
    for (const timer of this.#timers.filter((t) => t.at <= this.time)) {
      this.clearTimeout(timer);
      timer.run();
    }
  }
}

function bursts(limits = {}) {
  const clock = new ManualClock();
  const sent: string[] = [];
  const burst = new StderrBursts((text) => sent.push(text), limits, clock);
  return { clock, sent, burst };
}

describe("StderrBursts", () => {
  test("what pi writes within the window is one message, without the final line break", () => {
    const { clock, sent, burst } = bursts();
    burst.push("Error: Failed to load extension\n");
    burst.push('Hint: Start without extensions using "pi -ne".\n');
    clock.advance(19);
    assert.deepEqual(sent, []);
    clock.advance(1);
    assert.deepEqual(sent, [
      'Error: Failed to load extension\nHint: Start without extensions using "pi -ne".',
    ]);
    burst.push("later\n");
    clock.advance(20);
    assert.equal(sent.length, 1, "the next message waits for the interval");
    clock.advance(230);
    assert.deepEqual(sent.slice(1), ["later"]);
  });

  test("a message is bounded; what was left out is counted, never silently dropped", () => {
    const { clock, sent, burst } = bursts({ maxChars: 10 });
    burst.push("0123456789abcdef");
    burst.push("ghij");
    clock.advance(20);
    assert.deepEqual(sent, ["0123456789\n[… 10 more characters of pi's stderr left out]"]);
  });

  test("pi writing without pause gets one message per interval, each bounded", () => {
    const { clock, sent, burst } = bursts({ maxChars: 100, minIntervalMs: 250 });
    for (let ms = 0; ms < 1000; ms += 5) {
      burst.push("x".repeat(50));
      clock.advance(5);
    }
    assert.ok(sent.length >= 3 && sent.length <= 5, `${sent.length} messages in a second`);
    for (const text of sent) assert.ok(text.startsWith("x".repeat(100)) && text.length < 160);
  });

  test("flush sends what is pending at once; a throwing listener stops nothing", () => {
    const clock = new ManualClock();
    let calls = 0;
    const burst = new StderrBursts(
      () => {
        calls++;
        throw new Error("listener bug");
      },
      {},
      clock,
    );
    burst.push("last words\n");
    burst.flush();
    assert.equal(calls, 1);
    clock.advance(1000);
    assert.equal(calls, 1, "nothing more after the flush");
  });
});

const fakePi = fileURLToPath(new URL("../../fixtures/fake-pi.mjs", import.meta.url));
const deno = (globalThis as { Deno?: { execPath(): string } }).Deno;

test("child process: pi's stderr comes through onPiStderr in bounded bursts", async () => {
  const command = deno === undefined ? process.execPath : deno.execPath();
  const transport = await spawnPi({
    command,
    args: [...(deno === undefined ? [] : ["run", "-A"]), fakePi],
  });
  assert.ok(isStderrTransport(transport));
  const texts: string[] = [];
  const more = (n: number) =>
    new Promise<void>((resolve) => {
      if (texts.length >= n) return resolve();
      const off = transport.onPiStderr(() => {
        if (texts.length < n) return;
        off();
        resolve();
      });
    });
  transport.onPiStderr((text) => texts.push(text));
  try {
    await more(1);
    assert.match(texts[0] ?? "", /^fake pi \d+ starting$/);
    // 200 lines of 100 characters at once: bounded records, the rest counted.
    const writer = transport.writable.getWriter();
    await writer.write('{"type":"stderr","id":"s","lines":200,"width":99}\n');
    writer.releaseLock();
    await more(2);
    const burst = texts[1] ?? "";
    assert.ok(burst.length <= 4096 + 80, `a record of ${burst.length} characters`);
    assert.match(burst, /\[… \d+ more characters of pi's stderr left out\]$/);
  } finally {
    await transport.close();
  }
});

describe("bridge: bridge_pi_stderr", () => {
  let Socket: WebSocketConstructor;
  let bridge: FakeBridge;
  before(async () => {
    Socket = await socketClass();
    bridge = await FakeBridge.start();
  });
  after(() => bridge.close());

  test("becomes the client's pi_stderr event, as from a child process", async () => {
    const transport = createWebSocketTransport({
      url: bridge.url,
      token: FakeBridge.token,
      WebSocket: Socket,
    });
    assert.ok(isStderrTransport(transport));
    const client = await PiClient.connect(transport);
    try {
      const event = new Promise<PiStderrEvent>((resolve) => {
        const off = client.on("pi_stderr", (e) => {
          off();
          resolve(e);
        });
      });
      const text = 'Error: Failed to load extension "/ext/gate.ts": gate.json is missing';
      bridge.send({ type: "bridge_pi_stderr", text });
      assert.deepEqual(await event, { type: "pi_stderr", text });
    } finally {
      await client.close();
    }
  });
});
