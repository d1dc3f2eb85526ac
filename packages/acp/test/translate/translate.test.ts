/**
 * The pure mappings of pi's records to ACP's: tool calls as ACP kinds, titles and diffs (both pi
 * lines' `edit` arguments), results as content, the stream, transcripts replayed, and ACP prompts
 * as pi prompts.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { AgentMessage } from "@pi-kit/protocol";
import { historyUpdates } from "../../src/translate/history-updates.ts";
import { piPrompt } from "../../src/translate/prompt-content.ts";
import { StreamTranslator } from "../../src/translate/stream-updates.ts";
import { resultContent, toolCall, toolDiffs } from "../../src/translate/tool-calls.ts";

describe("tool calls", () => {
  test("kinds, titles and locations", () => {
    assert.deepEqual(toolCall("1", "bash", { command: "ls -la" }), {
      toolCallId: "1",
      title: "ls -la",
      kind: "execute",
      content: [],
      locations: [],
      rawInput: { command: "ls -la" },
    });
    const read = toolCall("2", "read", { path: "src/a.ts" });
    assert.equal(read.kind, "read");
    assert.equal(read.title, "read src/a.ts");
    assert.deepEqual(read.locations, [{ path: "src/a.ts" }]);
    assert.equal(toolCall("3", "grep", { pattern: "TODO" }).kind, "search");
    assert.equal(toolCall("4", "my_extension_tool", {}).kind, "other");
  });

  test("edit (pi 1.x edits list and 0.73 pair) and write as diffs", () => {
    assert.deepEqual(
      toolDiffs("edit", {
        path: "a",
        edits: [
          { oldText: "x", newText: "y" },
          { oldText: "p", newText: "q" },
        ],
      }),
      [
        { type: "diff", path: "a", oldText: "x", newText: "y" },
        { type: "diff", path: "a", oldText: "p", newText: "q" },
      ],
    );
    assert.deepEqual(toolDiffs("edit", { path: "a", oldText: "x", newText: "y" }), [
      { type: "diff", path: "a", oldText: "x", newText: "y" },
    ]);
    assert.deepEqual(toolDiffs("write", { path: "n", content: "hi" }), [
      { type: "diff", path: "n", oldText: null, newText: "hi" },
    ]);
    assert.deepEqual(toolDiffs("edit", {}), []);
    assert.deepEqual(toolDiffs("bash", { path: "x", content: "y" }), []);
  });

  test("a result's text as content", () => {
    const result = {
      content: [
        { type: "text", text: "one" },
        { type: "image", data: "", mimeType: "image/png" },
        { type: "text", text: "two" },
      ],
    };
    assert.deepEqual(resultContent(result), [
      { type: "content", content: { type: "text", text: "one\ntwo" } },
    ]);
    assert.deepEqual(resultContent({}), []);
    assert.deepEqual(resultContent(undefined), []);
  });
});

describe("the stream", () => {
  test("deltas, a tool call's life, and user messages other than the editor's own", () => {
    const t = new StreamTranslator();
    t.translate({
      type: "message_start",
      message: {
        role: "assistant",
        content: [],
        api: "",
        provider: "",
        model: "",
        usage: {} as never,
        stopReason: "pending",
        timestamp: 0,
      },
    });
    const [text] = t.translate({
      type: "message_update",
      assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "hi" },
    });
    assert.deepEqual(text, {
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: "hi" },
      messageId: "pi-1",
    });
    const [call] = t.translate({
      type: "message_update",
      assistantMessageEvent: {
        type: "toolcall_end",
        contentIndex: 1,
        toolCall: {
          type: "toolCall",
          id: "c1",
          name: "write",
          arguments: { path: "f", content: "x" },
        },
      },
    });
    assert.equal(call?.sessionUpdate === "tool_call" && call.status, "pending");
    const [running] = t.translate({
      type: "tool_execution_start",
      toolCallId: "c1",
      toolName: "write",
      args: { path: "f", content: "x" },
    });
    assert.deepEqual(running, {
      sessionUpdate: "tool_call_update",
      toolCallId: "c1",
      status: "in_progress",
    });
    const [done] = t.translate({
      type: "tool_execution_end",
      toolCallId: "c1",
      toolName: "write",
      result: { content: [{ type: "text", text: "ok" }] },
      isError: false,
    });
    assert.ok(done?.sessionUpdate === "tool_call_update");
    assert.equal(done.status, "completed");
    assert.deepEqual(done.content, [{ type: "diff", path: "f", oldText: null, newText: "x" }]);
    // A call pi never streamed (0.73 gives no toolcall_end before running it) is announced at start.
    const [late] = t.translate({
      type: "tool_execution_start",
      toolCallId: "c2",
      toolName: "bash",
      args: { command: "ls" },
    });
    assert.equal(late?.sessionUpdate, "tool_call");
    const [output] = t.translate({
      type: "tool_execution_update",
      toolCallId: "c2",
      toolName: "bash",
      args: {},
      partialResult: { content: [{ type: "text", text: "a\nb" }] },
    });
    assert.deepEqual(output, {
      sessionUpdate: "tool_call_update",
      toolCallId: "c2",
      content: [{ type: "content", content: { type: "text", text: "a\nb" } }],
    });

    t.expectOwnPrompt("mine");
    assert.deepEqual(
      t.translate({
        type: "message_end",
        message: { role: "user", content: "mine", timestamp: 0 },
      }),
      [],
    );
    assert.deepEqual(
      t.translate({
        type: "message_end",
        message: { role: "user", content: [{ type: "text", text: "theirs" }], timestamp: 0 },
      }),
      [{ sessionUpdate: "user_message_chunk", content: { type: "text", text: "theirs" } }],
    );
  });

  test("a transcript replayed", () => {
    const messages = [
      { role: "user", content: "do it", timestamp: 0 },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "hm" },
          { type: "text", text: "ok" },
          {
            type: "toolCall",
            id: "e",
            name: "edit",
            arguments: { path: "p", edits: [{ oldText: "a", newText: "b" }] },
          },
        ],
        timestamp: 0,
      },
      {
        role: "toolResult",
        toolCallId: "e",
        toolName: "edit",
        content: [{ type: "text", text: "done" }],
        isError: false,
        timestamp: 0,
      },
    ] as unknown as AgentMessage[];
    assert.deepEqual(
      historyUpdates(messages).map((u) => u.sessionUpdate),
      [
        "user_message_chunk",
        "agent_thought_chunk",
        "agent_message_chunk",
        "tool_call",
        "tool_call_update",
      ],
    );
    const end = historyUpdates(messages).at(-1);
    assert.ok(end?.sessionUpdate === "tool_call_update");
    assert.deepEqual(end.content, [{ type: "diff", path: "p", oldText: "a", newText: "b" }]);
  });
});

describe("prompts", () => {
  test("an ACP prompt as pi's", () => {
    assert.deepEqual(
      piPrompt([
        { type: "text", text: "look at" },
        { type: "resource_link", uri: "file:///a.ts", name: "a.ts" },
        { type: "resource", resource: { uri: "file:///b.ts", text: "const b = 1;" } },
        { type: "image", data: "AAAA", mimeType: "image/png" },
      ]),
      {
        text: "look at\n\n@file:///a.ts\n\nfile:///b.ts:\n```\nconst b = 1;\n```",
        images: [{ type: "image", data: "AAAA", mimeType: "image/png" }],
      },
    );
  });
});
