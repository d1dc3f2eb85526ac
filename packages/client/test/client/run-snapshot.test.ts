/**
 * The bridge's run snapshot (`bridge_run_snapshot`), as PiClient applies it: in its place among
 * pi's records, so a client joining mid-run shows the answer so far and continues it with the
 * live deltas; a client that already follows the run (a reconnect) does not count its
 * `agent_start` twice; a malformed snapshot is reported, not applied.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  BRIDGE_RUN_SNAPSHOT,
  type BridgeRunSnapshotRecord,
  parseRunSnapshot,
} from "@pi-kit/protocol/bridge";
import { PiClient, type PiClientDiagnostic } from "../../src/index.ts";
import { FakePi, flush } from "../support/fake-pi.ts";

const usage = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3 };
const assistant = (content: unknown[], stopReason = "pending") => ({
  role: "assistant",
  content,
  api: "openai-completions",
  provider: "fake",
  model: "fake-1",
  usage,
  stopReason,
  timestamp: 1,
});
const delta = (text: string) => ({
  type: "message_update",
  usage,
  assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: text },
});
const tool = (type: "start" | "update" | "end", id: string, extra: object = {}) => ({
  type: `tool_execution_${type}`,
  toolCallId: id,
  toolName: "bash",
  ...extra,
});

function snapshot(...records: object[]): BridgeRunSnapshotRecord {
  return {
    type: BRIDGE_RUN_SNAPSHOT,
    records: records.map((record) => JSON.stringify(record)),
  };
}

function text(client: PiClient): string {
  const message = client.session.getSnapshot().streamingMessage;
  if (message?.role !== "assistant") return "";
  return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

test("a client joining mid-run shows the answer so far and the running tool, then follows live", async () => {
  const pi = new FakePi("1");
  const client = new PiClient(pi.transport);
  const diagnostics: PiClientDiagnostic[] = [];
  client.on("diagnostic", (d) => diagnostics.push(d));
  const types: string[] = [];
  client.onEvent((event) => types.push(event.type));

  pi.push(
    snapshot(
      { type: "agent_start" },
      { type: "message_start", message: assistant([{ type: "text", text: "Hello" }]) },
      tool("start", "t1", { args: { command: "ls" } }),
      tool("update", "t1", { partialResult: { content: [{ type: "text", text: "a\n" }] } }),
    ),
  );
  pi.push(delta(" world"));
  await flush();
  const joined = client.session.getSnapshot();
  assert.equal(joined.isRunning, true);
  assert.equal(client.isRunning, true);
  assert.equal(text(client), "Hello world");
  assert.equal(joined.toolExecutions.get("t1")?.status, "running");
  assert.deepEqual(joined.toolExecutions.get("t1")?.partialResult, {
    content: [{ type: "text", text: "a\n" }],
  });
  assert.deepEqual(types, [
    "agent_start",
    "message_start",
    "tool_execution_start",
    "tool_execution_update",
    "message_update",
  ]);

  const settled = client.waitForSettled();
  const final = assistant([{ type: "text", text: "Hello world" }], "stop");
  pi.push({ type: "message_end", message: final });
  pi.push({ type: "agent_end", messages: [final] });
  pi.push({ type: "agent_settled", aborted: false });
  assert.deepEqual(await settled, { aborted: false });
  assert.deepEqual(client.session.getSnapshot().messages, [final]);
  assert.equal(client.session.getSnapshot().isRunning, false);
  assert.deepEqual(diagnostics, []);
  await client.close();
});

test("a reconnected client that follows the run keeps what it knew and does not start it twice", async () => {
  const pi = new FakePi("1");
  const client = new PiClient(pi.transport);
  const starts: string[] = [];
  client.on("agent_start", (event) => starts.push(event.type));
  pi.push({ type: "agent_start" });
  pi.push(tool("start", "done", { args: { command: "true" } }));
  pi.push(tool("end", "done", { result: { content: [] }, isError: false }));
  pi.push({ type: "message_start", message: assistant([]) });
  pi.push(delta("He"));
  await flush();

  // What the bridge sends the new connection: the message as far as pi has streamed it.
  pi.push(
    snapshot(
      { type: "agent_start" },
      { type: "message_start", message: assistant([{ type: "text", text: "Hello" }]) },
    ),
  );
  pi.push(delta("!"));
  await flush();
  assert.equal(text(client), "Hello!");
  assert.deepEqual(starts, ["agent_start"], "the run was announced once");
  assert.equal(client.session.getSnapshot().toolExecutions.get("done")?.status, "done");
  await client.close();
});

test("a snapshot without its list of records is reported; a record in one that is not a pi event is reported and skipped", async () => {
  const pi = new FakePi("1");
  const client = new PiClient(pi.transport);
  const diagnostics: PiClientDiagnostic[] = [];
  client.on("diagnostic", (d) => diagnostics.push(d));
  pi.push({ type: BRIDGE_RUN_SNAPSHOT, records: [{ type: "agent_start" }] });
  pi.push({ type: BRIDGE_RUN_SNAPSHOT, records: ["not json", '{"type":"agent_start"}'] });
  await flush();
  assert.deepEqual(
    diagnostics.map((d) => d.kind),
    ["protocol_error", "protocol_error"],
  );
  assert.match(diagnostics[0]?.message ?? "", /without its list of records/);
  assert.match(diagnostics[1]?.message ?? "", /not a pi event \(error\)/);
  // The well-formed record of the second snapshot still applied.
  assert.equal(client.session.getSnapshot().isRunning, true);
  await client.close();
});

test("parseRunSnapshot reads the record and nothing else", () => {
  const record = snapshot({ type: "agent_start" });
  assert.deepEqual(parseRunSnapshot(JSON.stringify(record)), record);
  assert.equal(parseRunSnapshot('{"type":"agent_start"}'), undefined);
  assert.equal(parseRunSnapshot('{"type":"bridge_run_snapshot","records":[1]}'), undefined);
  assert.equal(parseRunSnapshot('{"type":"bridge_run_snapshot"'), undefined);
});
