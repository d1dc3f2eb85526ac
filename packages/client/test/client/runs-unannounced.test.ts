/**
 * Runs pi never closes: on 0.73 `compact` or `new_session` during a stream emit no `agent_end`;
 * after a reconnect the end may have been lost. An idle `get_state` settles them.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PiClient, type PiClientDiagnostic } from "../../src/index.ts";
import { FakePi, flush, ok, STATE } from "../support/fake-pi.ts";

function streamingPi(version: "0.73" | "1"): { pi: FakePi; setStreaming: (v: boolean) => void } {
  const pi = new FakePi(version);
  let streaming = false;
  pi.handlers.set("get_state", (c) => [ok(c, { ...STATE, isStreaming: streaming })]);
  pi.handlers.set("prompt", (c) => {
    streaming = true;
    return [
      version === "1" ? ok(c, { disposition: "started" }) : ok(c),
      { type: "agent_start" },
      { type: "message_start", message: { role: "assistant", content: [], timestamp: 1 } },
    ];
  });
  return { pi, setStreaming: (v) => (streaming = v) };
}

describe("runs pi never announces the end of", () => {
  test("0.73: new_session during a stream settles the run (inferred, aborted) with a diagnostic", async () => {
    const { pi, setStreaming } = streamingPi("0.73");
    const client = new PiClient(pi.transport, { capabilities: "0.73" });
    const diagnostics: PiClientDiagnostic[] = [];
    client.on("diagnostic", (d) => diagnostics.push(d));
    const settledEvents: boolean[] = [];
    client.on("run_settled", (e) => settledEvents.push(e.aborted));
    const run = client.promptAndWait("long");
    await flush();
    assert.equal(client.isRunning, true);
    pi.handlers.set("new_session", (c) => {
      setStreaming(false); // pi abandons the stream and says nothing about it
      return [ok(c, { cancelled: false })];
    });
    await client.newSession();
    assert.deepEqual(await run, { disposition: "started", aborted: true, inferred: true });
    assert.equal(client.isRunning, false);
    assert.equal(client.session.getSnapshot().isRunning, false);
    assert.deepEqual(settledEvents, [true]);
    assert.deepEqual(
      diagnostics.map((d) => d.kind),
      ["unannounced_run_end"],
    );
    await client.close();
  });

  test("0.73: any idle get_state (the one in resync too) settles a run stuck after compact", async () => {
    const { pi, setStreaming } = streamingPi("0.73");
    const client = new PiClient(pi.transport, { capabilities: "0.73" });
    await client.prompt("long");
    await flush();
    assert.equal(client.isRunning, true);
    const waiting = client.waitForSettled();
    await client.getState(); // still streaming: nothing happens
    assert.equal(client.isRunning, true);
    setStreaming(false);
    pi.handlers.set("get_messages", (c) => [ok(c, { messages: [] })]);
    await client.session.resync();
    assert.deepEqual(await waiting, { aborted: true, inferred: true });
    assert.equal(client.session.getSnapshot().isStreaming, false);
    await client.close();
  });

  test("a get_state sent before a run started cannot end it", async () => {
    const pi = new FakePi("0.73");
    const client = new PiClient(pi.transport, { capabilities: "0.73" });
    let answer: ((records: unknown[]) => void) | undefined;
    pi.handlers.set("get_state", (c) => {
      answer = (records) => {
        for (const r of records) pi.push(r);
      };
      // Answered (idle) only after agent_start has reached the client.
      setTimeout(() => answer?.([ok(c, STATE)]), 20);
      return [];
    });
    const state = client.getState();
    await flush();
    pi.push({ type: "agent_start" });
    await state;
    assert.equal(client.isRunning, true);
    await client.close();
  });

  test("1.x: settled from get_state just before agent_settled; the late event is not a second settle", async () => {
    const { pi, setStreaming } = streamingPi("1");
    const client = new PiClient(pi.transport, { capabilities: "1" });
    const diagnostics: PiClientDiagnostic[] = [];
    client.on("diagnostic", (d) => diagnostics.push(d));
    const settledEvents: boolean[] = [];
    client.on("run_settled", (e) => settledEvents.push(e.aborted));
    await client.prompt("x");
    pi.push({ type: "agent_end", messages: [] });
    await flush();
    setStreaming(false);
    await client.getState();
    assert.equal(client.isRunning, false);
    pi.push({ type: "agent_settled", aborted: false });
    await flush();
    assert.deepEqual(settledEvents, [false]);
    assert.deepEqual(diagnostics, []);
    await client.close();
  });
});
