/**
 * Issue 11, defect 7: a direct `bash()` adds its `bashExecution` message to `snapshot.messages`
 * where and when pi adds it to its transcript, equal to what a resync shows.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PiClient } from "../../src/index.ts";
import { FakePi, flush, ok, STATE, type Written } from "../support/fake-pi.ts";

const user = { role: "user", content: "hi", timestamp: 1 };
const answer = { role: "assistant", content: [], stopReason: "stop", timestamp: 2 };

/** A fake pi that records bash calls in its transcript as pi does, with its own timestamps. */
function recordingPi(version: "1" | "0.73"): { pi: FakePi; transcript: unknown[] } {
  const pi = new FakePi(version);
  const transcript: unknown[] = [user, answer];
  let streaming = false;
  const held: unknown[] = [];
  const entries = () =>
    transcript.map((message, i) => ({
      type: "message",
      id: `e${i}`,
      parentId: i === 0 ? null : `e${i - 1}`,
      timestamp: "2026-01-01T00:00:00.000Z",
      message,
    }));
  pi.handlers.set("get_state", (c) => [ok(c, { ...STATE, isStreaming: streaming })]);
  pi.handlers.set("get_messages", (c) => [ok(c, { messages: transcript })]);
  pi.handlers.set("get_entries", (c) => {
    const all = entries();
    const since = typeof c.since === "string" ? all.findIndex((e) => e.id === c.since) + 1 : 0;
    return [ok(c, { entries: all.slice(since), leafId: all.at(-1)?.id ?? null })];
  });
  pi.handlers.set("bash", (c) => {
    const result = {
      output: `${String(c.command)}\n`,
      exitCode: 0,
      cancelled: false,
      truncated: false,
    };
    const message = {
      role: "bashExecution",
      command: c.command,
      ...result,
      timestamp: 1_000 + transcript.length,
    };
    if (streaming) held.push(message);
    else transcript.push(message);
    return [ok(c, result)];
  });
  pi.handlers.set("prompt", (c) => {
    streaming = true;
    return [
      ok(c, version === "1" ? { disposition: "started" } : undefined),
      { type: "agent_start" },
    ];
  });
  // Ends the run as pi does: held bash messages join the transcript before agent_settled (1.x).
  (pi as FakePi & { endRun(): void }).endRun = () => {
    streaming = false;
    const reply = { ...answer, timestamp: 3 };
    transcript.push(reply);
    pi.push({ type: "message_end", message: reply });
    pi.push({ type: "agent_end", messages: [reply] });
    if (version === "1") {
      transcript.push(...held.splice(0));
      pi.push({ type: "agent_settled", aborted: false });
    }
  };
  return { pi, transcript };
}

const endRun = (pi: FakePi): void => (pi as FakePi & { endRun(): void }).endRun();

describe("direct bash in the transcript", () => {
  test("1.x: an idle bash() adds pi's own bashExecution message, equal to get_messages", async () => {
    const { pi, transcript } = recordingPi("1");
    const client = await PiClient.connect(pi.transport, { resync: true });
    await client.bash("echo one");
    assert.deepEqual(client.session.getSnapshot().messages, transcript);
    assert.equal(client.session.getSnapshot().messages.at(-1)?.role, "bashExecution");
    assert.equal(client.session.getSnapshot().bashRuns[0]?.inTranscript, true);
    // Later calls read only the entries since the cursor, never the whole transcript again.
    const before = pi.written.length;
    await client.bash("echo two");
    assert.deepEqual(client.session.getSnapshot().messages, transcript);
    const reads = pi.written.slice(before).map((c: Written) => c.type);
    assert.deepEqual(reads.sort(), ["bash", "get_entries", "get_state"]);
    await client.close();
  });

  test("1.x: a bash() during a run joins the transcript when the run ends, after its messages", async () => {
    const { pi, transcript } = recordingPi("1");
    const client = await PiClient.connect(pi.transport, { resync: true });
    await client.prompt("go");
    await client.bash("echo during");
    assert.equal(
      client.session.getSnapshot().messages.some((m) => m.role === "bashExecution"),
      false,
      "pi holds it until the run ends",
    );
    assert.equal(client.session.getSnapshot().bashRuns[0]?.inTranscript, false);
    endRun(pi);
    await client.waitForSettled();
    await flush();
    await client.getState(); // the reconcile's round trip is done by now
    assert.deepEqual(client.session.getSnapshot().messages, transcript);
    assert.equal(client.session.getSnapshot().messages.at(-1)?.role, "bashExecution");
    assert.equal(client.session.getSnapshot().bashRuns[0]?.inTranscript, true);
    await client.close();
  });

  test("0.73: the message is built by the client (pi's own clock aside) and a resync brings pi's copy", async () => {
    const { pi, transcript } = recordingPi("0.73");
    const client = await PiClient.connect(pi.transport, { resync: true });
    const result = await client.bash("echo old");
    const shown = client.session.getSnapshot().messages;
    const { timestamp: _client, ...built } = shown.at(-1) as { timestamp: number };
    const { timestamp: _pi, ...recorded } = transcript.at(-1) as { timestamp: number };
    assert.deepEqual(built, recorded);
    assert.equal(result.exitCode, 0);
    // No duplicate after a resync: pi's copy replaces the client's.
    await client.session.resync();
    assert.deepEqual(client.session.getSnapshot().messages, transcript);
    await client.close();
  });
});
