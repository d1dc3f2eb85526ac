/**
 * How a session hands pi's records to its connections, with a scripted pi (no process): the
 * order each connection sees, which connection gets an answer, who goes first in a batch, and
 * the run snapshot a connection attaching mid-run gets (on both pi wire formats).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { AssistantMessage, RpcEvent } from "@pi-kit/protocol";
import { MessageAssembler } from "@pi-kit/protocol";
import { parseRunSnapshot } from "@pi-kit/protocol/bridge";
import type { SessionConnection } from "../../src/sessions/session-connection.ts";
import { read, withSession } from "../scripted-session.ts";

/** A connection that logs each line it is sent, by its own name, into one shared log. */
function connection(id: number, log: string[]): SessionConnection {
  return {
    id,
    label: `viewer ${id}`,
    readOnly: false,
    send: (line) => {
      const record = JSON.parse(line) as { type: string; n?: number };
      if (record.type !== "bridge_control") log.push(`${id}:${record.n ?? record.type}`);
    },
    bufferedAmount: () => 0,
    drained: async () => {},
    close: () => {},
  };
}

const events = (from: number, count: number): string[] =>
  Array.from({ length: count }, (_, i) => JSON.stringify({ type: "message_update", n: from + i }));

test("relay: the controller gets a whole batch before any watcher, each in pi's order", async () => {
  await withSession(async (session, pi) => {
    const log: string[] = [];
    const watcher = connection(1, log);
    const controller = connection(2, log);
    session.attach(watcher);
    session.attach(controller);
    // The watcher attached first, so it controls; hand control to the later connection.
    assert.equal(session.takeControl(controller), true);
    pi.write(events(0, 3));
    await read();
    pi.write(events(3, 2));
    await read();
    assert.deepEqual(log, ["2:0", "2:1", "2:2", "1:0", "1:1", "1:2", "2:3", "2:4", "1:3", "1:4"]);
  });
});

test("relay: an answer goes to its asker alone, in its place among the events", async () => {
  await withSession(async (session, pi) => {
    const log: string[] = [];
    const controller = connection(1, log);
    const watcher = connection(2, log);
    session.attach(controller);
    session.attach(watcher);
    assert.equal(session.write('{"type":"get_state","id":7}', undefined, watcher, 7), true);
    await read();
    // pi answers with the id it read: the bridge's own for the command.
    const asked = (JSON.parse(pi.stdin.at(-1) as string) as { id: string }).id;
    pi.write([
      events(0, 1)[0] as string,
      `{"id":${JSON.stringify(asked)},"type":"response","command":"get_state","success":true}`,
      events(1, 1)[0] as string,
    ]);
    await read();
    assert.deepEqual(log, ["1:0", "1:1", "2:0", "2:response", "2:1"]);
  });
});

test("relay: a socket over the high-water mark mid-batch gets the rest of it once drained", async () => {
  const lineBytes = events(0, 1)[0]?.length ?? 0;
  await withSession(async (session, pi) => {
    const log: string[] = [];
    let buffered = 0;
    let drain: (() => void) | undefined;
    const slow: SessionConnection = {
      ...connection(1, log),
      send: (line) => {
        buffered += line.length;
        log.push(`1:${(JSON.parse(line) as { n?: number }).n ?? "control"}`);
      },
      bufferedAmount: () => buffered,
      drained: () =>
        new Promise<void>((resolve) => {
          drain = resolve;
        }),
      // As a real socket's does, closing ends the wait (so a failed assertion cannot hang the test).
      close: () => drain?.(),
    };
    session.attach(slow);
    buffered = 0;
    log.length = 0;
    pi.write(events(0, 10));
    await read();
    // Over the mark after the third record: the socket holds at most the mark plus one record.
    assert.deepEqual(log, ["1:0", "1:1", "1:2"]);
    assert.ok(session.info().peakBufferedAmount <= 2.5 * lineBytes + lineBytes);
    pi.write(events(10, 1));
    await read();
    assert.equal(log.length, 3, "pi is not read while the socket is full");
    // Each time the socket drains, it gets records until it is over the mark again.
    for (const upTo of [6, 9, 11]) {
      buffered = 0;
      drain?.();
      await read();
      assert.equal(log.length, upTo);
    }
    assert.deepEqual(log, [
      "1:0",
      "1:1",
      "1:2",
      "1:3",
      "1:4",
      "1:5",
      "1:6",
      "1:7",
      "1:8",
      "1:9",
      "1:10",
    ]);
  }, 2.5 * lineBytes);
});

/** A connection that keeps every line it is sent except the control records. */
function recorder(id: number): SessionConnection & { readonly lines: string[] } {
  const lines: string[] = [];
  return {
    ...connection(id, []),
    lines,
    send: (line) => {
      if (!line.startsWith('{"type":"bridge_control"')) lines.push(line);
    },
  };
}

/** What a client shows of the streamed message, after applying `lines` (a snapshot's records first). */
function assembled(lines: readonly string[]): unknown {
  const assembler = new MessageAssembler();
  for (const line of lines) {
    const records = parseRunSnapshot(line)?.records ?? [line];
    for (const record of records) {
      const event = JSON.parse(record) as RpcEvent;
      if (event.type === "message_start") assembler.start(event.message);
      else if (event.type === "message_update") assembler.update(event);
    }
  }
  return assembler.current;
}

const usage = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3 };
const assistant = (content: unknown[]) => ({
  role: "assistant",
  content,
  api: "openai-completions",
  provider: "pikit",
  model: "scripted",
  usage,
  stopReason: "pending",
  timestamp: 1,
});
const line = (record: object) => JSON.stringify(record);
/** A pi 1.x delta (usage first, no copy of the message). */
const update1 = (step: object) =>
  line({ type: "message_update", usage, assistantMessageEvent: step });
/**
 * A pi 0.73 delta: the whole message twice, and (as real 0.73 does) ahead of the deltas sent so
 * far, since pi serialises the message it keeps growing.
 */
const update073 = (step: object, ahead: unknown[]) =>
  line({
    type: "message_update",
    assistantMessageEvent: { ...step, partial: assistant(ahead) },
    message: assistant(ahead),
  });

for (const wire of ["1", "0.73"] as const) {
  test(`run snapshot (pi ${wire} wire): a connection attaching mid-message gets the message so far, then the live deltas`, async () => {
    const ahead = [
      { type: "text", text: "hello world again" },
      { type: "toolCall", id: "call_1", name: "bash", arguments: {}, partialArgs: "" },
    ];
    const update = (step: object) => (wire === "1" ? update1(step) : update073(step, ahead));
    const before = [
      line({ type: "agent_start" }),
      line({ type: "turn_start" }),
      line({ type: "message_start", message: { role: "user", content: "hi", timestamp: 1 } }),
      line({ type: "message_end", message: { role: "user", content: "hi", timestamp: 1 } }),
      line({ type: "message_start", message: assistant([]) }),
      update({ type: "text_start", contentIndex: 0 }),
      update({ type: "text_delta", contentIndex: 0, delta: "hello " }),
      update({ type: "text_delta", contentIndex: 0, delta: "wor" }),
    ];
    const after = [
      update({ type: "text_delta", contentIndex: 0, delta: "ld again" }),
      update({ type: "text_end", contentIndex: 0, content: "hello world again" }),
      update(
        wire === "1"
          ? { type: "toolcall_start", contentIndex: 1, id: "call_1", toolName: "bash" }
          : { type: "toolcall_start", contentIndex: 1 },
      ),
      update({ type: "toolcall_delta", contentIndex: 1, delta: '{"command":"ls"}' }),
    ];
    await withSession(async (session, pi) => {
      const early = recorder(1);
      session.attach(early);
      pi.write(before);
      await read();
      const late = recorder(2);
      session.attach(late);
      pi.write(after);
      await read();

      const snapshot = parseRunSnapshot(late.lines[0] ?? "");
      assert.ok(snapshot, "the joining connection's first record is the run snapshot");
      assert.deepEqual(
        snapshot.records.map((record) => (JSON.parse(record) as { type: string }).type),
        ["agent_start", "message_start"],
      );
      const message = (JSON.parse(snapshot.records[1] ?? "") as { message: AssistantMessage })
        .message;
      // The deltas sent so far, never 0.73's copy (which is ahead of them).
      assert.deepEqual(message.content, [{ type: "text", text: "hello wor" }]);
      assert.deepEqual(late.lines.slice(1), after, "then the live records, unchanged");
      // Applied as a client does, the snapshot and what follows equal the whole stream.
      assert.deepEqual(assembled(late.lines), assembled(early.lines));
      const toolCall = (assembled(late.lines) as AssistantMessage).content[1];
      assert.deepEqual(toolCall?.type === "toolCall" ? [toolCall.id, toolCall.name] : [], [
        "call_1",
        "bash",
      ]);
    });
  });
}

test("run snapshot: tools still running come with their latest update; nothing once the run ended", async () => {
  const tool = (type: string, id: string, extra: object = {}) =>
    line({ type: `tool_execution_${type}`, toolCallId: id, toolName: "bash", ...extra });
  await withSession(async (session, pi) => {
    pi.write([
      line({ type: "agent_start" }),
      tool("start", "a", { args: { command: "a" } }),
      tool("start", "b", { args: { command: "b" } }),
      tool("update", "a", { partialResult: { content: [{ type: "text", text: "1" }] } }),
      tool("update", "a", { partialResult: { content: [{ type: "text", text: "12" }] } }),
      tool("end", "b", { result: { content: [] }, isError: false }),
    ]);
    await read();
    const joining = recorder(1);
    session.attach(joining);
    const records = parseRunSnapshot(joining.lines[0] ?? "")?.records;
    assert.deepEqual(records, [
      line({ type: "agent_start" }),
      tool("start", "a", { args: { command: "a" } }),
      tool("update", "a", { partialResult: { content: [{ type: "text", text: "12" }] } }),
    ]);

    pi.write([line({ type: "agent_end", messages: [] }), line({ type: "agent_settled" })]);
    await read();
    const afterRun = recorder(2);
    session.attach(afterRun);
    assert.deepEqual(afterRun.lines, [], "an idle session sends no snapshot");
  });
});
