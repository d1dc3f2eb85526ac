/**
 * Issue 11, defects 2, 3 and 4: a wait after a prompt waits for that prompt's run however the
 * records arrive; `aborted` comes from `agent_settled` where pi says it, else from the last
 * assistant message; closing mid-wait leaves nothing unhandled.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PiClient, PiClientError } from "../../src/index.ts";
import { closedDuring } from "../support/client-errors.ts";
import { FakePi, flush, ok, STATE, sleep } from "../support/fake-pi.ts";

const abortedAnswer = {
  role: "assistant",
  content: [{ type: "text", text: "tick" }],
  stopReason: "aborted",
  timestamp: 2,
};
const answer = { ...abortedAnswer, stopReason: "stop" };

/** Resolves to "pending" unless `promise` settles within a few event-loop turns. */
async function stillPending(promise: Promise<unknown>): Promise<boolean> {
  const marker = Symbol("pending");
  const first = await Promise.race([promise.then(() => "settled"), sleep(20).then(() => marker)]);
  return first === marker;
}

/**
 * The prompt's answer arrives alone, as over a WebSocket (one record per message, each in its own
 * task); the run's events come later. `disposition` is what pi puts in the answer (none before 0.99).
 */
function promptAnsweredAlone(pi: FakePi, disposition: "started" | undefined): void {
  pi.handlers.set("prompt", (c) => [disposition === undefined ? ok(c) : ok(c, { disposition })]);
}

describe("waiting for the run a prompt started", () => {
  for (const [name, version, disposition] of [
    ["pi 1.x (disposition started)", "1", "started"],
    ["pi 0.8x (no disposition)", "1", undefined],
    ["pi 0.73 (no disposition, no agent_settled)", "0.73", undefined],
  ] as const) {
    test(`${name}: await prompt(); await waitForSettled() waits for that run`, async () => {
      const pi = new FakePi(version);
      const client = await PiClient.connect(pi.transport);
      promptAnsweredAlone(pi, disposition);
      let streaming = false;
      pi.handlers.set("get_state", (c) => [ok(c, { ...STATE, isStreaming: streaming })]);
      // pi has accepted the run: it reports streaming before it writes agent_start.
      streaming = true;
      await client.prompt("go");
      assert.equal(client.isRunning, true, "the run counts as open once pi accepted it");
      const settled = client.waitForSettled();
      assert.equal(await stillPending(settled), true, "it waits; the run has not even started");

      pi.push({ type: "agent_start" });
      pi.push({ type: "message_end", message: abortedAnswer });
      assert.equal(await stillPending(settled), true, "a started run is not over");
      streaming = false;
      pi.push({ type: "agent_end", messages: [abortedAnswer] });
      // Where pi announces the end, agent_end is not it; on 0.73 the get_state barrier settles.
      if (version === "1") {
        assert.equal(await stillPending(settled), true, "only agent_settled settles it");
        pi.push({ type: "agent_settled" });
      }
      assert.deepEqual(await settled, { aborted: true });
      assert.equal(client.isRunning, false);
      await client.close();
    });
  }

  test("a handled prompt (no run) leaves nothing to wait for, with or without a disposition", async () => {
    for (const version of ["1", "0.73"] as const) {
      const pi = new FakePi(version);
      const client = await PiClient.connect(pi.transport);
      pi.handlers.set("prompt", (c) => [
        version === "1" ? ok(c, { disposition: "handled" }) : ok(c),
      ]);
      await client.prompt("/cmd");
      assert.equal(client.isRunning, false);
      assert.deepEqual(await client.waitForSettled(), { aborted: false });
      await client.close();
    }
  });

  test("promptAndWait resolves with the run it started even when the whole run came with the answer", async () => {
    const pi = new FakePi("1");
    const client = await PiClient.connect(pi.transport);
    pi.handlers.set("prompt", (c) => [
      ok(c, { disposition: "started" }),
      { type: "agent_start" },
      { type: "message_end", message: abortedAnswer },
      { type: "agent_end", messages: [abortedAnswer] },
      { type: "agent_settled", aborted: true },
    ]);
    assert.deepEqual(await client.promptAndWait("fast"), { disposition: "started", aborted: true });
    assert.deepEqual(await client.waitForSettled(), { aborted: false });
    await client.close();
  });
});

describe("aborted, detected from what pi sends", () => {
  test("agent_settled without `aborted` (pi 0.80 to 1.0): the last assistant message's stopReason decides", async () => {
    const pi = new FakePi("1");
    const client = await PiClient.connect(pi.transport);
    assert.equal(client.capabilities.settledAborted, undefined);
    const settled: boolean[] = [];
    client.on("run_settled", (e) => settled.push(e.aborted));
    for (const message of [abortedAnswer, answer]) {
      pi.handlers.set("prompt", (c) => [
        ok(c),
        { type: "agent_start" },
        { type: "message_end", message },
        { type: "agent_end", messages: [message] },
        { type: "agent_settled" },
      ]);
      await client.promptAndWait("go");
    }
    assert.deepEqual(settled, [true, false]);
    assert.equal(client.capabilities.settledAborted, false);
    assert.equal(client.capabilities.agentSettled, true);
    assert.equal(client.capabilities.promptDisposition, false);
    await client.close();
  });

  test("agent_settled with `aborted` (pi 1.1 on) is taken as it is", async () => {
    const pi = new FakePi("1");
    const client = await PiClient.connect(pi.transport);
    pi.handlers.set("prompt", (c) => [
      ok(c, { disposition: "started" }),
      { type: "agent_start" },
      { type: "agent_end", messages: [answer] },
      { type: "agent_settled", aborted: true },
    ]);
    assert.deepEqual(await client.promptAndWait("go"), { disposition: "started", aborted: true });
    assert.equal(client.capabilities.settledAborted, true);
    assert.equal(client.capabilities.promptDisposition, true);
    await client.close();
  });
});

describe("closing while a call waits", () => {
  test("close() while promptAndWait's prompt is held by an extension dialog rejects it, and nothing is left unhandled", async () => {
    const pi = new FakePi("0.73");
    const client = await PiClient.connect(pi.transport, {
      dialogHandler: () => new Promise(() => {}),
    });
    // An extension command holds the prompt's answer until its dialog is answered.
    pi.handlers.set("prompt", () => [
      { type: "extension_ui_request", id: "d1", method: "confirm", title: "Sure?", message: "?" },
    ]);
    const waiting = client.promptAndWait("/ui confirm");
    await flush();
    assert.equal(client.session.getSnapshot().dialogs.length, 1);
    await client.close();
    await assert.rejects(waiting, closedDuring("promptAndWait"));
    // The unhandled-rejection tripwire (test-support/tripwire.ts) fails this test on any leak.
    await sleep(10);
  });

  test("an extension that shuts pi down during promptAndWait on a pi without dispositions: the error names promptAndWait", async () => {
    const pi = new FakePi("0.73");
    const client = await PiClient.connect(pi.transport);
    pi.handlers.set("prompt", (c, fake) => {
      setTimeout(() => fake.exit({ reason: "exit", exitCode: 0, signal: null }), 0);
      return [ok(c)];
    });
    pi.handlers.set("get_state", () => undefined);
    await assert.rejects(client.promptAndWait("/ui exit"), (e: unknown) => {
      assert.ok(e instanceof PiClientError);
      assert.equal(e.code, "transport_closed");
      assert.equal(e.command, "promptAndWait");
      assert.match(e.message, /^promptAndWait failed: pi transport closed \(exit, exit code 0\)/);
      assert.doesNotMatch(e.message, /get_state/);
      return true;
    });
  });
});
