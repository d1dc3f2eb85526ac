import assert from "node:assert/strict";
import process from "node:process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import type { ChildProcessOptions, ChildProcessTransport } from "../../../src/process.ts";
import { detectRuntime, spawnPi } from "../../../src/process.ts";
import { frameReader } from "../../support/frame-reader.ts";

const fakePi = fileURLToPath(new URL("../../fixtures/fake-pi.mjs", import.meta.url));
const deno = (globalThis as { Deno?: { execPath(): string } }).Deno;

/** Runs the fake pi with the current runtime's own binary. */
function fake(
  flags: string[] = [],
  options: ChildProcessOptions = {},
): Promise<ChildProcessTransport> {
  const command = deno === undefined ? process.execPath : deno.execPath();
  const prefix = deno === undefined ? [] : ["run", "-A"];
  return spawnPi({ command, args: [...prefix, fakePi, ...flags], ...options });
}

test("child: the runtime is detected", () => {
  const runtime = detectRuntime();
  const expected = deno !== undefined ? "deno" : "Bun" in globalThis ? "bun" : "node";
  assert.equal(runtime, expected);
});

test("child: each runtime has its own entry point; Deno's and Bun's refuse elsewhere", async () => {
  const [{ spawnNode }, { spawnDeno }, { spawnBun }] = await Promise.all([
    import("../../../src/node.ts"),
    import("../../../src/deno.ts"),
    import("../../../src/bun.ts"),
  ]);
  assert.equal(typeof spawnNode, "function");
  if (detectRuntime() !== "deno") await assert.rejects(spawnDeno(), TypeError);
  if (detectRuntime() !== "bun") await assert.rejects(spawnBun(), TypeError);
});

test("child: writes right after spawn are answered; close stops pi through stdin", async () => {
  const transport = await fake();
  assert.equal(typeof transport.pid, "number");
  const writer = transport.writable.getWriter();
  // No sleep and no ready frame: pi reads stdin when it is ready.
  await writer.write('{"type":"get_state","id":"1"}\n');
  const reader = frameReader(transport.readable);
  const response = await reader.until((r) => r.type === "response");
  assert.deepEqual(response, {
    id: "1",
    type: "response",
    command: "get_state",
    success: true,
    data: { fake: true },
  });

  const reading = (async () => reader.until((r) => r.type === "goodbye"))();
  const info = await transport.close();
  // The stdin close let pi write its final record before it exited.
  assert.deepEqual(await reading, { type: "goodbye" });
  assert.equal(info.reason, "closed");
  assert.equal(info.exitCode, 0);
  assert.equal(info.signal, null);
  assert.match(info.stderrTail ?? "", /stdin closed\n$/);
  assert.equal(await transport.closed, info);
  await reader.drain();
});

test("child: stderr is kept in a bounded ring buffer, cut at a line start", async () => {
  let live = "";
  const transport = await fake([], { stderrBufferBytes: 1000, onStderr: (text) => (live += text) });
  const reader = frameReader(transport.readable);
  const writer = transport.writable.getWriter();
  // 200 lines of 99 characters plus LF: 20 kB, twenty times the ring.
  await writer.write('{"type":"stderr","id":"s","lines":200,"width":99}\n');
  await reader.until((r) => r.id === "s");
  const info = await transport.close();
  await reader.drain();
  const tail = info.stderrTail ?? "";
  assert.ok(tail.length <= 1000, `tail is ${tail.length} bytes`);
  assert.match(tail, /^(-*\d+\n)+stdin closed\n$/);
  assert.match(tail, /-199\n/);
  assert.equal(transport.stderrTail(), tail);
  assert.ok(live.length > 20_000 && live.startsWith("fake pi"), "onStderr saw everything");
});

test("child: a process that ignores stdin close gets SIGTERM, then SIGKILL", async () => {
  const transport = await fake(["--ignore-stdin-close", "--ignore-sigterm"], {
    stopTimeouts: { stdinCloseMs: 150, sigtermMs: 150 },
  });
  const reader = frameReader(transport.readable);
  await transport.writable.getWriter().write('{"type":"get_state","id":"1"}\n');
  await reader.until((r) => r.id === "1");
  const start = performance.now();
  const info = await transport.close();
  const took = performance.now() - start;
  await reader.drain();
  assert.equal(info.reason, "closed");
  assert.equal(info.signal, "SIGKILL");
  assert.equal(info.exitCode, null);
  assert.match(info.stderrTail ?? "", /stdin closed\n(ignoring SIGTERM\n)?$/);
  // Well under the default timeouts' 3 s, with room for a loaded machine.
  assert.ok(took >= 290 && took < 2500, `stopped after ${took} ms`);
});

test("child: a process that ignores only stdin close ends on SIGTERM", async () => {
  const transport = await fake(["--ignore-stdin-close"], {
    stopTimeouts: { stdinCloseMs: 100, sigtermMs: 5000 },
  });
  const reader = frameReader(transport.readable);
  await transport.writable.getWriter().write('{"type":"get_state","id":"1"}\n');
  await reader.until((r) => r.id === "1");
  const info = await transport.close();
  await reader.drain();
  assert.equal(info.signal, "SIGTERM");
});

test("child: a killed pi settles closed on its exit, with signal and stderr tail", async () => {
  // Stop timers of a minute: a close that waited on one instead of the exit would show.
  const transport = await fake([], { stopTimeouts: { stdinCloseMs: 60_000, sigtermMs: 60_000 } });
  const reader = frameReader(transport.readable);
  const writer = transport.writable.getWriter();
  await writer.write('{"type":"get_state","id":"1"}\n');
  await reader.until((r) => r.id === "1");
  const start = performance.now();
  process.kill(transport.pid as number, "SIGKILL");
  const info = await transport.closed;
  const took = performance.now() - start;
  // bench/client/exit.bench.ts measures how soon (target 100 ms); a test on a loaded machine
  // checks only that the exit, not a timer, settled it.
  assert.ok(took < 10_000, `closed settled after ${took} ms`);
  assert.equal(info.reason, "exit");
  assert.equal(info.signal, "SIGKILL");
  assert.equal(info.exitCode, null);
  assert.match(info.stderrTail ?? "", /^fake pi \d+ starting\n$/);
  assert.equal((await reader.read()).done, true);
  // Writing to a dead pi fails instead of crashing the host; close() reports the exit.
  await assert.rejects(writer.write('{"type":"get_state","id":"2"}\n'));
  assert.equal((await transport.close()).reason, "exit");
});

test("child: pi exiting by itself reports its exit code", async () => {
  const transport = await fake();
  const reader = frameReader(transport.readable);
  await transport.writable.getWriter().write('{"type":"exit","code":3}\n');
  const info = await transport.closed;
  await reader.drain();
  assert.equal(info.reason, "exit");
  assert.equal(info.exitCode, 3);
  assert.equal(info.signal, null);
  assert.match(info.stderrTail ?? "", /exiting with 3\n$/);
});

test("child: env is merged over the current environment", async () => {
  const command = deno === undefined ? process.execPath : deno.execPath();
  const script =
    "console.log(JSON.stringify({type:'env',a:process.env.PI_KIT_A??null,path:!!process.env.PATH}))";
  const args = deno === undefined ? ["-e", script] : ["eval", script];
  const transport = await spawnPi({ command, args, env: { PI_KIT_A: "1" } });
  const reader = frameReader(transport.readable);
  assert.deepEqual(await reader.until((r) => r.type === "env"), {
    type: "env",
    a: "1",
    path: true,
  });
  assert.equal((await transport.closed).exitCode, 0);
});

test("child: a missing command rejects with a hint", async () => {
  await assert.rejects(spawnPi({ command: "pi-kit-no-such-command" }), (error: Error) => {
    assert.match(error.message, /Cannot spawn "pi-kit-no-such-command": the command was not found/);
    return true;
  });
});

test("child: a reader that cancels before pi exits ends the transport cleanly", async () => {
  const transport = await fake();
  const reader = transport.readable.getReader();
  await reader.cancel();
  // pi's stdout ends after the cancel: that must not close the cancelled stream a second time.
  const info = await transport.close();
  assert.equal(info.reason, "closed");
});
