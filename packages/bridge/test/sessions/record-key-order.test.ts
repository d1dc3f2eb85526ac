/**
 * The session reads pi's records by their fields, not by where pi happens to write them: with a
 * scripted pi that writes every record's keys in another order than pi does (type last, id last),
 * answers still reach their asker alone, the bridge's own commands still get their answers, the
 * streaming state still follows the run, and a connection joining mid-run still gets its snapshot.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseRunSnapshot } from "@pi-kit/protocol/bridge";
import type { SessionConnection } from "../../src/sessions/session-connection.ts";
import { read, withSession } from "../scripted-session.ts";

/** A connection that keeps every line it is sent except the control records. */
function recorder(id: number): SessionConnection & { readonly lines: string[] } {
  const lines: string[] = [];
  return {
    id,
    label: `viewer ${id}`,
    readOnly: false,
    lines,
    send: (line) => {
      if ((JSON.parse(line) as { type?: unknown }).type !== "bridge_control") lines.push(line);
    },
    bufferedAmount: () => 0,
    drained: async () => {},
    close: () => {},
  };
}

/** `record` as JSON with its keys in reverse order: `type` (and a response's `id`) come last. */
const reversed = (record: Record<string, unknown>): string =>
  JSON.stringify(Object.fromEntries(Object.entries(record).reverse()));

test("key order: an answer written with its id last still goes to its asker alone", async () => {
  await withSession(async (session, pi) => {
    const controller = recorder(1);
    const watcher = recorder(2);
    session.attach(controller);
    session.attach(watcher);
    assert.equal(session.write('{"type":"get_state","id":7}', undefined, watcher, 7), true);
    await read();
    // pi answers with the id it read, the bridge's own; the watcher gets its 7 back in its place.
    const asked = (JSON.parse(pi.stdin.at(-1) as string) as { id: unknown }).id;
    const answer = (id: unknown): string =>
      reversed({ id, type: "response", command: "get_state", success: true });
    pi.write([reversed({ type: "turn_start" }), answer(asked)]);
    await read();
    assert.deepEqual(controller.lines, [reversed({ type: "turn_start" })]);
    assert.deepEqual(watcher.lines, [reversed({ type: "turn_start" }), answer(7)]);
  });
});

test("key order: the bridge's own command gets its answer, which no client sees", async () => {
  await withSession(async (session, pi) => {
    const client = recorder(1);
    session.attach(client);
    pi.answerWith((record) =>
      record.type === "set_session_name"
        ? reversed({ id: record.id, type: "response", command: "set_session_name", success: true })
        : undefined,
    );
    await session.setName("renamed");
    assert.equal(session.announcedName, "renamed");
    assert.deepEqual(client.lines, []);
  });
});

test("key order: streaming follows the run, and a connection joining mid-run gets its snapshot", async () => {
  const assistant = {
    role: "assistant",
    content: [],
    api: "openai-completions",
    provider: "pikit",
    model: "scripted",
    stopReason: "pending",
    timestamp: 1,
  };
  await withSession(async (session, pi) => {
    pi.write([
      reversed({ type: "agent_start" }),
      reversed({ type: "message_start", message: assistant }),
      reversed({
        type: "message_update",
        assistantMessageEvent: { type: "text_start", contentIndex: 0 },
      }),
      reversed({
        type: "message_update",
        assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "hello" },
      }),
      reversed({ type: "tool_execution_start", toolCallId: "call_1", toolName: "bash" }),
    ]);
    await read();
    assert.equal(session.info().streaming, true);
    const late = recorder(2);
    session.attach(late);
    const records = parseRunSnapshot(late.lines[0] ?? "")?.records ?? [];
    assert.deepEqual(
      records.map((record) => (JSON.parse(record) as { type: string }).type),
      ["agent_start", "message_start", "tool_execution_start"],
    );
    const message = (JSON.parse(records[1] ?? "{}") as { message?: { content?: unknown } }).message;
    assert.deepEqual(message?.content, [{ type: "text", text: "hello" }]);

    pi.write([reversed({ type: "agent_end", messages: [] })]);
    await read();
    assert.equal(session.info().streaming, false);
  });
});
