/**
 * PiClient over the WebSocket transport against the fake bridge: reconnects mid-run resynchronise
 * the session model, fail calls whose answers were lost, and re-show (only) pending dialogs.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  type ClientEvent,
  createWebSocketTransport,
  type DialogHandler,
  PiClient,
  type PiClientDiagnostic,
  PiClientError,
  type WebSocketTransport,
} from "../../../src/index.ts";
import { FakeBridge, socketClass } from "../../support/ws-fake-bridge.ts";

const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 };
const user = { role: "user", content: "go", timestamp: 1 };
const toolCallAnswer = {
  role: "assistant",
  content: [
    { type: "text", text: "running it" },
    { type: "toolCall", id: "t1", name: "bash", arguments: { command: "echo hi" } },
  ],
  api: "openai-completions",
  provider: "pikit",
  model: "scripted",
  usage,
  stopReason: "toolUse",
  timestamp: 2,
};
const toolResult = {
  role: "toolResult",
  toolCallId: "t1",
  toolName: "bash",
  content: [{ type: "text", text: "hi\n" }],
  isError: false,
  timestamp: 3,
};
const finalAnswer = {
  ...toolCallAnswer,
  content: [{ type: "text", text: "done" }],
  stopReason: "stop",
  timestamp: 4,
};

async function connect(
  bridge: FakeBridge,
  dialogHandler?: DialogHandler,
): Promise<{ client: PiClient; diagnostics: PiClientDiagnostic[]; transport: WebSocketTransport }> {
  const transport = createWebSocketTransport({
    url: bridge.url,
    token: FakeBridge.token,
    WebSocket: await socketClass(),
    reconnect: { initialDelayMs: 5, maxDelayMs: 20 },
  });
  const client = await PiClient.connect(transport, dialogHandler ? { dialogHandler } : {});
  const diagnostics: PiClientDiagnostic[] = [];
  client.on("diagnostic", (d) => diagnostics.push(d));
  return { client, diagnostics, transport };
}

function next<T extends ClientEvent["type"]>(client: PiClient, type: T, ms = 5000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} within ${ms} ms`)), ms);
    const off = client.on(type, () => {
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

/** Starts a run: the user message, then an assistant message streaming its first words. */
function startRun(bridge: FakeBridge): void {
  bridge.handlers.set("prompt", (command, b) => {
    b.send({
      id: command.id,
      type: "response",
      command: "prompt",
      success: true,
      ...(b.version === "1" ? { data: { disposition: "started" } } : {}),
    });
    b.streaming = true;
    b.send({ type: "agent_start" });
    b.appendMessage(user);
    b.send({ type: "message_start", message: { ...toolCallAnswer, content: [] } });
    b.send({
      type: "message_update",
      assistantMessageEvent: { type: "text_start", contentIndex: 0 },
    });
    b.send({
      type: "message_update",
      assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "running" },
    });
    return [];
  });
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("PiClient over WebSocket", () => {
  for (const version of ["1", "0.73"] as const) {
    test(`${version}: a drop mid-answer with a tool call; after the reconnect the transcript equals get_messages`, async () => {
      const bridge = await FakeBridge.start(version);
      const { client } = await connect(bridge);
      assert.equal(client.capabilities.versionLine, version);
      startRun(bridge);
      await client.prompt("go");
      await until(() => client.session.getSnapshot().streamingMessage !== undefined);

      bridge.drop();
      // Lost with the connection: the tool-call answer, the tool run and its result.
      bridge.appendMessage(toolCallAnswer);
      bridge.send({ type: "tool_execution_start", toolCallId: "t1", toolName: "bash", args: {} });
      bridge.appendMessage(toolResult);
      // pi already holds the final answer (0.73 reports it in get_messages before its message_end).
      if (version === "0.73") bridge.messages.push(finalAnswer);
      bridge.accepting = true;
      await next(client, "session_resynced");
      const resyncRound = (bridge.received.at(-1) ?? []).map((r) => JSON.parse(r));
      const resynced = client.session.getSnapshot();
      assert.equal(resynced.isStreaming, true);
      assert.equal(resynced.isRunning, true);

      // The rest of the run arrives live; the final message_end must not add the answer twice.
      if (version === "0.73") bridge.send({ type: "message_end", message: finalAnswer });
      else bridge.appendMessage(finalAnswer);
      bridge.streaming = false;
      const settled = client.waitForSettled();
      bridge.send({ type: "agent_end", messages: [] });
      if (version === "1") bridge.send({ type: "agent_settled", aborted: false });
      assert.deepEqual(await settled, { aborted: false });

      const transcript = client.session.getSnapshot().messages;
      assert.deepEqual(transcript, await client.getMessages());
      assert.deepEqual(transcript, [user, toolCallAnswer, toolResult, finalAnswer]);
      if (version === "1") {
        assert.equal(client.session.getSnapshot().lastEntryId, bridge.entries.at(-1)?.id);
        // Incremental: the reconnect read entries since the cursor, not the whole transcript again.
        const since = resyncRound.find((c) => c.type === "get_entries");
        assert.equal(typeof since?.since, "string");
        assert.equal(
          resyncRound.some((c) => c.type === "get_messages"),
          false,
          "no full transcript after a reconnect",
        );
      }
      await client.close();
      await bridge.close();
    });
  }

  test("each reconnect emits one session_changed (reason reconnect) once the session is reloaded", async () => {
    const bridge = await FakeBridge.start("1");
    bridge.appendMessage(user);
    const { client } = await connect(bridge);
    const changes: Array<{ reason: string; shown: number }> = [];
    client.on("session_changed", (e) =>
      changes.push({ reason: e.reason, shown: client.session.getSnapshot().messages.length }),
    );
    for (const round of [1, 2]) {
      bridge.drop();
      bridge.appendMessage(round === 1 ? finalAnswer : { ...finalAnswer, timestamp: 9 });
      bridge.accepting = true;
      await next(client, "session_changed");
      assert.deepEqual(changes.at(-1), { reason: "reconnect", shown: round + 1 });
    }
    assert.equal(changes.length, 2);
    assert.deepEqual(client.session.getSnapshot().messages, await client.getMessages());
    await client.close();
    await bridge.close();
  });

  test("a reconnect that lands on another session (pi restarted on another file) replaces the transcript", async () => {
    const bridge = await FakeBridge.start("1");
    bridge.appendMessage(user);
    bridge.appendMessage(finalAnswer);
    const { client } = await connect(bridge);
    assert.equal(client.session.getSnapshot().messages.length, 2);
    bridge.drop();
    bridge.sessionId = "s2";
    bridge.messages = [];
    bridge.entries = [];
    bridge.appendMessage({ ...user, content: "elsewhere" });
    bridge.accepting = true;
    await next(client, "session_changed");
    assert.equal(client.session.getSnapshot().state?.sessionId, "s2");
    assert.deepEqual(client.session.getSnapshot().messages, [{ ...user, content: "elsewhere" }]);
    await client.close();
    await bridge.close();
  });

  test("a run that ended during the gap is settled from get_state, with a diagnostic", async () => {
    const bridge = await FakeBridge.start("1");
    const { client, diagnostics } = await connect(bridge);
    startRun(bridge);
    await client.prompt("go");
    await until(() => client.isRunning);
    bridge.drop();
    bridge.appendMessage(finalAnswer);
    bridge.streaming = false; // agent_end and agent_settled are lost
    const settled = client.waitForSettled();
    bridge.accepting = true;
    assert.deepEqual(await settled, { aborted: true, inferred: true });
    await next(client, "session_resynced");
    assert.equal(client.isRunning, false);
    assert.deepEqual(client.session.getSnapshot().messages, await client.getMessages());
    assert.equal(client.session.getSnapshot().streamingMessage, undefined);
    assert.ok(diagnostics.some((d) => d.kind === "unannounced_run_end"));
    await client.close();
    await bridge.close();
  });

  test("a call sent on the dropped connection fails as connection_lost; one sent in the gap is answered", async () => {
    const bridge = await FakeBridge.start("1");
    const { client, transport } = await connect(bridge);
    bridge.handlers.set("get_commands", () => []); // never answers on the first connection
    const lost = client.getCommands();
    await bridge.waitFor("get_commands");
    bridge.drop();
    // Sent once the client knows the socket is gone: it waits for the next one.
    await until(() => transport.state.status === "reconnecting");
    // A UI holding only the client sees the same state.
    assert.equal(client.transport, transport);
    bridge.handlers.delete("get_commands");
    const later = client.getState().catch((e: unknown) => e);
    bridge.accepting = true;
    await assert.rejects(lost, (error: unknown) => {
      assert.ok(error instanceof PiClientError);
      assert.equal(error.code, "connection_lost");
      return true;
    });
    const answered = await later;
    assert.equal(answered instanceof Error, false, String(answered));
    await client.close();
    await bridge.close();
  });

  test("pending dialogs re-sent on re-attach are shown once; answered ones are answered again; gone ones close", async () => {
    const bridge = await FakeBridge.start("1");
    const shown: string[] = [];
    const { client } = await connect(bridge, (request) => {
      shown.push(request.id);
      return new Promise(() => {}); // the UI answers through client.ui
    });
    bridge.openDialog({ id: "d1", method: "confirm", title: "Sure?", message: "m" });
    bridge.openDialog({ id: "d2", method: "select", title: "Pick", options: ["a", "b"] });
    bridge.openDialog({ id: "d3", method: "input", title: "Name" });
    await until(() => client.session.getSnapshot().dialogs.length === 3);

    bridge.drop();
    bridge.pendingDialogs.delete("d2"); // timed out in pi while disconnected
    assert.equal(client.ui.answer("d3", "bob"), true); // answered in the gap: the write waits
    bridge.accepting = true;
    await next(client, "session_resynced");

    assert.deepEqual(shown, ["d1", "d2", "d3"]);
    assert.deepEqual(
      client.session.getSnapshot().dialogs.map((d) => d.request.id),
      ["d1"],
    );
    await until(() => !bridge.pendingDialogs.has("d3"));
    // Re-sent because pi still waited: the same answer again, never a second prompt to the user.
    const d3 = bridge.received
      .flat()
      .map((r) => JSON.parse(r) as { type: string; id?: string })
      .filter((c) => c.type === "extension_ui_response" && c.id === "d3");
    assert.ok(d3.length >= 1);
    for (const answer of d3)
      assert.deepEqual(answer, { type: "extension_ui_response", id: "d3", value: "bob" });
    assert.equal(client.ui.answer("d1", true), true);
    await until(() => bridge.pendingDialogs.size === 0);
    await client.close();
    await bridge.close();
  });

  test("pi exiting under the bridge closes the client with the exit code; nothing reconnects", async () => {
    const bridge = await FakeBridge.start("1");
    const { client } = await connect(bridge);
    bridge.handlers.set("get_commands", () => []);
    const pending = client.getCommands();
    await bridge.waitFor("get_commands");
    bridge.closeWith(
      4000,
      JSON.stringify({ reason: "exit", exitCode: 3, signal: null, stderrTail: "fatal" }),
    );
    const info = await client.closed;
    assert.deepEqual(info, { reason: "exit", exitCode: 3, signal: null, stderrTail: "fatal" });
    await assert.rejects(pending, (error: unknown) => {
      assert.ok(error instanceof PiClientError);
      assert.equal(error.code, "transport_closed");
      assert.match(error.message, /exit code 3/);
      return true;
    });
    await bridge.close();
  });
});
