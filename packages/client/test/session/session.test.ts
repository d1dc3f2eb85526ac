import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { StreamingToolCall } from "@pi-kit/protocol";
import { PiClient } from "../../src/index.ts";
import { FakePi, flush, ok } from "../support/fake-pi.ts";

const usage = {
  input: 1,
  output: 2,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 3,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const base = {
  role: "assistant",
  api: "openai-completions",
  provider: "fake",
  model: "fake-1",
  usage,
  timestamp: 1,
};
const toolCall = { type: "toolCall", id: "call_1", name: "bash", arguments: { command: "ls -la" } };
const final = {
  ...base,
  stopReason: "toolUse",
  content: [
    { type: "thinking", thinking: "Let me think." },
    { type: "text", text: "Hello world" },
    toolCall,
  ],
};

function update(step: Record<string, unknown>, legacy = false): Record<string, unknown> {
  if (!legacy) return { type: "message_update", usage, assistantMessageEvent: step };
  // 0.73.1: a cumulative (here deliberately wrong) copy on every delta, which must be ignored.
  const junk = { ...base, stopReason: "stop", content: [{ type: "text", text: "JUNK" }] };
  return {
    type: "message_update",
    assistantMessageEvent: { ...step, partial: junk },
    message: junk,
  };
}

function stream(pi: FakePi, legacy: boolean): void {
  pi.push({ type: "agent_start" });
  pi.push({
    type: "message_start",
    message: { ...base, stopReason: legacy ? "stop" : "pending", content: [] },
  });
  const steps: Record<string, unknown>[] = [
    { type: "thinking_start", contentIndex: 0 },
    { type: "thinking_delta", contentIndex: 0, delta: "Let me " },
    { type: "text_start", contentIndex: 1 },
    { type: "thinking_delta", contentIndex: 0, delta: "think." },
    { type: "text_delta", contentIndex: 1, delta: "Hello" },
    {
      type: "toolcall_start",
      contentIndex: 2,
      ...(legacy ? {} : { id: "call_1", toolName: "bash" }),
    },
    { type: "text_delta", contentIndex: 1, delta: " world" },
    { type: "toolcall_delta", contentIndex: 2, delta: '{"command":' },
    { type: "toolcall_delta", contentIndex: 2, delta: '"ls -la"}' },
  ];
  for (const step of steps) pi.push(update(step, legacy));
}

function finish(pi: FakePi, legacy: boolean): void {
  pi.push(update({ type: "thinking_end", contentIndex: 0, content: "Let me think." }, legacy));
  pi.push(update({ type: "text_end", contentIndex: 1, content: "Hello world" }, legacy));
  pi.push(update({ type: "toolcall_end", contentIndex: 2, toolCall }, legacy));
}

describe("session model", () => {
  for (const legacy of [false, true]) {
    test(`assembles text, thinking and tool calls by contentIndex (${legacy ? "0.73 partial ignored" : "1.x"})`, async () => {
      const pi = new FakePi(legacy ? "0.73" : "1");
      const client = new PiClient(pi.transport, { capabilities: legacy ? "0.73" : "1" });
      let notified = 0;
      client.session.subscribe(() => notified++);
      stream(pi, legacy);
      await flush();
      const mid = client.session.getSnapshot().streamingMessage;
      assert.equal(mid?.role, "assistant");
      if (mid?.role !== "assistant") return;
      assert.deepEqual(mid.content[0], { type: "thinking", thinking: "Let me think." });
      assert.deepEqual(mid.content[1], { type: "text", text: "Hello world" });
      const partialCall = mid.content[2] as StreamingToolCall;
      assert.equal(partialCall.partialArguments, '{"command":"ls -la"}');
      assert.equal(legacy ? partialCall.id : partialCall.name, legacy ? "" : "bash");
      assert.ok(notified >= 1);
      finish(pi, legacy);
      await flush();
      const assembled = client.session.getSnapshot().streamingMessage;
      assert.ok(assembled?.role === "assistant");
      assert.deepEqual(assembled.content, final.content);
      pi.push({ type: "message_end", message: final });
      await flush();
      const snapshot = client.session.getSnapshot();
      assert.equal(snapshot.streamingMessage, undefined);
      assert.deepEqual(snapshot.messages.at(-1), final);
      assert.deepEqual(snapshot.usage, usage);
      await client.close();
    });
  }

  test("snapshots are immutable and unchanged history is shared between deltas", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    pi.push({ type: "message_start", message: { role: "user", content: "hi", timestamp: 1 } });
    pi.push({ type: "message_end", message: { role: "user", content: "hi", timestamp: 1 } });
    pi.push({ type: "message_start", message: { ...base, stopReason: "pending", content: [] } });
    pi.push(update({ type: "text_start", contentIndex: 0 }));
    await flush();
    const before = client.session.getSnapshot();
    pi.push(update({ type: "text_delta", contentIndex: 0, delta: "x" }));
    await flush();
    const after = client.session.getSnapshot();
    assert.notEqual(before, after);
    assert.equal(before.messages, after.messages);
    assert.notEqual(before.streamingMessage, after.streamingMessage);
    await client.close();
  });

  test("tool executions, queues and flags", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    const session = client.session;
    pi.push({ type: "agent_start" });
    pi.push({
      type: "tool_execution_start",
      toolCallId: "t1",
      toolName: "bash",
      args: { command: "ls" },
    });
    pi.push({
      type: "tool_execution_update",
      toolCallId: "t1",
      toolName: "bash",
      args: { command: "ls" },
      partialResult: { content: [{ type: "text", text: "a" }] },
    });
    pi.push({
      type: "tool_execution_update",
      toolCallId: "t1",
      toolName: "bash",
      args: { command: "ls" },
      partialResult: { content: [{ type: "text", text: "ab" }] },
    });
    pi.push({ type: "queue_update", steering: ["s"], followUp: ["f"] });
    pi.push({ type: "compaction_start", reason: "threshold" });
    pi.push({
      type: "auto_retry_start",
      attempt: 1,
      maxAttempts: 3,
      delayMs: 10,
      errorMessage: "x",
    });
    await flush();
    let s = session.getSnapshot();
    assert.deepEqual(s.toolExecutions.get("t1")?.partialResult, {
      content: [{ type: "text", text: "ab" }],
    });
    assert.equal(s.toolExecutions.get("t1")?.status, "running");
    assert.deepEqual(s.queue, { steering: ["s"], followUp: ["f"] });
    assert.equal(s.isCompacting, true);
    assert.equal(s.isRetrying, true);
    assert.equal(s.isRunning, true);
    pi.push({
      type: "tool_execution_end",
      toolCallId: "t1",
      toolName: "bash",
      result: { content: [{ type: "text", text: "abc" }] },
      isError: false,
      durationMs: 5,
    });
    pi.push({ type: "compaction_end", reason: "threshold", aborted: false, willRetry: false });
    pi.push({ type: "auto_retry_end", success: true, attempt: 1 });
    pi.push({ type: "agent_end", messages: [] });
    pi.push({ type: "agent_settled" });
    await flush();
    s = session.getSnapshot();
    assert.equal(s.toolExecutions.get("t1")?.status, "done");
    assert.equal(s.toolExecutions.get("t1")?.durationMs, 5);
    assert.equal(s.isCompacting, false);
    assert.equal(s.isRetrying, false);
    assert.equal(s.isRunning, false);
    assert.equal(s.isStreaming, false);
    await client.close();
  });

  test("resync loads messages, state and the entry cursor", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    const messages = [{ role: "user", content: "hi", timestamp: 1 }];
    pi.handlers.set("get_messages", (c) => [ok(c, { messages })]);
    pi.handlers.set("get_entries", (c) => [ok(c, { entries: [], leafId: "leaf9" })]);
    const snapshot = await client.session.resync();
    assert.deepEqual(snapshot.messages, messages);
    assert.equal(snapshot.state?.sessionId, "s1");
    assert.equal(snapshot.lastEntryId, "leaf9");
    await client.close();
  });

  test("resync on 0.73 skips get_entries", async () => {
    const pi = new FakePi("0.73");
    const client = await PiClient.connect(pi.transport);
    pi.handlers.set("get_messages", (c) => [ok(c, { messages: [] })]);
    await client.session.resync();
    assert.equal(
      pi.written.some((c) => c.type === "get_entries"),
      false,
    );
    await client.close();
  });
});
