import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PiClient } from "../../src/index.ts";
import { FakePi, flush, ok, STATE, sleep } from "../support/fake-pi.ts";

const aborted = { role: "assistant", stopReason: "aborted", content: [], timestamp: 1 };

describe("runs", () => {
  test("1.x: prompt resolves with the disposition; promptAndWait cannot miss a fast agent_settled", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport, { capabilities: "1" });
    pi.handlers.set("prompt", (c) => [
      ok(c, { disposition: "started" }),
      { type: "agent_start" },
      { type: "agent_end", messages: [] },
      { type: "agent_settled", aborted: false },
    ]);
    const settled: boolean[] = [];
    client.on("run_settled", (e) => settled.push(e.aborted));
    const result = await client.promptAndWait("hi");
    assert.deepEqual(result, { disposition: "started", aborted: false });
    assert.deepEqual(settled, [false]);
    assert.equal(await client.prompt("again"), "started");
    await client.close();
  });

  test("1.x: a handled prompt has nothing to wait for", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport, { capabilities: "1" });
    pi.handlers.set("prompt", (c) => [ok(c, { disposition: "handled" })]);
    assert.deepEqual(await client.promptAndWait("/cmd"), {
      disposition: "handled",
      aborted: false,
    });
    await client.close();
  });

  test("1.x: agent_end with a retry is not the end; only agent_settled is", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport, { capabilities: "1" });
    pi.handlers.set("prompt", (c) => [
      ok(c, { disposition: "started" }),
      { type: "agent_start" },
      { type: "agent_end", messages: [], willRetry: true },
      { type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 10, errorMessage: "x" },
    ]);
    let done = false;
    const wait = client.promptAndWait("hi").then((r) => {
      done = true;
      return r;
    });
    await sleep(30);
    assert.equal(done, false);
    pi.push({ type: "agent_start" });
    pi.push({ type: "agent_end", messages: [aborted] });
    pi.push({ type: "agent_settled", aborted: true });
    assert.deepEqual(await wait, { disposition: "started", aborted: true });
    await client.close();
  });

  test("0.73: agent_end followed by auto_retry_start does not settle; the fallback settles after the retry", async () => {
    const pi = new FakePi("0.73");
    const client = new PiClient(pi.transport, { capabilities: "0.73" });
    let streaming = true;
    pi.handlers.set("get_state", (c) => [ok(c, { ...STATE, isStreaming: streaming })]);
    pi.handlers.set("prompt", (c) => [
      ok(c),
      { type: "agent_start" },
      { type: "agent_end", messages: [] },
      { type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 10, errorMessage: "x" },
    ]);
    const events: string[] = [];
    client.on("run_settled", () => events.push("settled"));
    let done = false;
    const wait = client.promptAndWait("hi").then((r) => {
      done = true;
      return r;
    });
    await sleep(30);
    assert.equal(done, false);
    assert.equal(client.isRunning, true);
    streaming = false;
    pi.push({ type: "agent_start" });
    pi.push({ type: "auto_retry_end", success: true, attempt: 1 });
    pi.push({ type: "agent_end", messages: [] });
    assert.deepEqual(await wait, { disposition: "started", aborted: false });
    assert.deepEqual(events, ["settled"]);
    assert.equal(client.session.getSnapshot().isRunning, false);
    await client.close();
  });

  test("0.73: compaction after agent_end delays the settle until compaction_end", async () => {
    const pi = new FakePi("0.73");
    const client = new PiClient(pi.transport, { capabilities: "0.73" });
    pi.handlers.set("prompt", (c) => [
      ok(c),
      { type: "agent_start" },
      { type: "agent_end", messages: [] },
      { type: "compaction_start", reason: "threshold" },
    ]);
    let done = false;
    const wait = client.promptAndWait("hi").then(() => {
      done = true;
    });
    await sleep(30);
    assert.equal(done, false);
    pi.push({ type: "compaction_end", reason: "threshold", aborted: false, willRetry: false });
    await wait;
    await client.close();
  });

  test("0.73: a prompt with no run (handled by a command) is inferred as handled", async () => {
    const pi = new FakePi("0.73");
    const client = new PiClient(pi.transport, { capabilities: "0.73" });
    assert.equal(await client.prompt("/cmd"), undefined);
    assert.deepEqual(await client.promptAndWait("/cmd"), {
      disposition: "handled",
      aborted: false,
    });
    await client.close();
  });

  test("waitForSettled resolves at once when idle and on settle when running", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport, { capabilities: "1" });
    assert.deepEqual(await client.waitForSettled(), { aborted: false });
    pi.push({ type: "agent_start" });
    await flush();
    const wait = client.waitForSettled({ timeoutMs: 1000 });
    pi.push({ type: "agent_settled" });
    assert.deepEqual(await wait, { aborted: false });
    pi.push({ type: "agent_start" });
    await flush();
    await assert.rejects(client.waitForSettled({ timeoutMs: 10 }), /timed out/);
    await client.close();
  });

  test("a waiter rejects when the transport closes mid-run", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport, { capabilities: "1" });
    pi.push({ type: "agent_start" });
    await flush();
    const wait = client.waitForSettled();
    pi.exit();
    await assert.rejects(wait, /transport closed/);
  });
});
