/**
 * Live: the `pi-kit-acp` command against a real bridge, real pi 1.x and the scripted model, driven
 * by the ACP SDK's own client app: a streamed prompt ends `end_turn`, cancel ends `cancelled`
 * within 500 ms, a confirm dialog is a permission request whose deny blocks the tool, an edit is a
 * diff, list and load replay the history, and a second client on the same bridge session sees
 * the same stream and control passes between them.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { methods, type SessionUpdate } from "@agentclientprotocol/sdk";
import { type ClientEvent, PiClient } from "@pi-kit/client";
import { createNodeWebSocketTransport } from "@pi-kit/client/ws-node";
import {
  type AcpTestClient,
  type AgentProcess,
  connectClient,
  initialize,
  startAgent,
  startTestBridge,
  type TestBridge,
  textOf,
} from "./support/acp-harness.ts";

let bridge: TestBridge;
let agent: AgentProcess;
let acp: AcpTestClient;
let sessionId: string;

before(async () => {
  bridge = await startTestBridge();
  agent = startAgent(["--url", bridge.served.url, "--token-file", bridge.tokenFile]);
  acp = connectClient(agent);
});
after(async () => {
  await agent.stop();
  await bridge.dispose();
});

const prompt = (text: string) =>
  acp.connection.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text }],
  });

describe("pi-kit-acp on a bridge", () => {
  test("initialize, new session, a streamed prompt that ends end_turn, usage", async () => {
    const init = await initialize(acp);
    assert.equal(init.protocolVersion, 1);
    assert.equal(init.agentCapabilities?.loadSession, true);
    assert.deepEqual(init.agentCapabilities?.sessionCapabilities?.list, {});
    const created = await acp.connection.agent.request(methods.agent.session.new, {
      cwd: "/",
      mcpServers: [],
    });
    sessionId = created.sessionId;
    const ids = created.configOptions?.map((option) => option.id);
    assert.deepEqual(ids, ["model", "thinking_level"]);
    const from = acp.updates.length;
    const result = await prompt("[[think pondering it]] [[text hello from the bridge]]");
    assert.equal(result.stopReason, "end_turn");
    assert.equal(textOf(acp, "agent_message_chunk", from), "hello from the bridge");
    assert.equal(textOf(acp, "agent_thought_chunk", from), "pondering it");
    const chunks = acp.updates
      .slice(from)
      .filter((n) => n.update.sessionUpdate === "agent_message_chunk");
    assert.ok(chunks.length >= 4, `streamed in ${chunks.length} chunks`);
    assert.ok(chunks.every((n) => n.sessionId === sessionId));
    // The editor's own prompt is not echoed back as a user message.
    assert.equal(textOf(acp, "user_message_chunk", from), "");
    // pi's slash commands are offered: the ui-probe extension's `/ui` among them.
    const commands = await acp.waitForUpdate(
      (u) => u.sessionUpdate === "available_commands_update",
    );
    assert.ok(commands.sessionUpdate === "available_commands_update");
    assert.ok(commands.availableCommands.some((c) => c.name === "ui"));
    const usage = await acp.waitForUpdate((u) => u.sessionUpdate === "usage_update", from);
    assert.ok(usage.sessionUpdate === "usage_update" && usage.size > 0);
  });

  test("session/cancel ends the prompt cancelled within 500 ms", async () => {
    const from = acp.updates.length;
    const running = prompt("[[slow 40ms x 400]]");
    await acp.waitForUpdate((u) => u.sessionUpdate === "agent_message_chunk", from);
    const started = performance.now();
    await acp.connection.agent.notify(methods.agent.session.cancel, { sessionId });
    const result = await running;
    const elapsed = performance.now() - started;
    assert.equal(result.stopReason, "cancelled");
    assert.ok(elapsed < 500, `cancelled after ${elapsed.toFixed(0)} ms`);
  });

  test("a confirm dialog is a permission request, and deny blocks the tool", async () => {
    acp.answer = () => ({ outcome: { outcome: "selected", optionId: "reject" } });
    const from = acp.updates.length;
    const asked = acp.permissions.length;
    const result = await prompt("[[bash echo CONFIRM-ran]]");
    assert.equal(result.stopReason, "end_turn");
    const request = acp.permissions[asked];
    assert.ok(request !== undefined, "no permission request");
    assert.deepEqual(
      request.options.map((o) => o.kind),
      ["allow_once", "reject_once"],
    );
    const bash = acp.updates
      .slice(from)
      .map((n) => n.update)
      .find((u) => u.sessionUpdate === "tool_call" && u.kind === "execute");
    assert.ok(bash?.sessionUpdate === "tool_call");
    const end = await acp.waitForUpdate(
      (u) =>
        u.sessionUpdate === "tool_call_update" &&
        u.toolCallId === bash.toolCallId &&
        u.status !== undefined &&
        u.status !== "in_progress" &&
        u.status !== "pending",
      from,
    );
    assert.ok(end.sessionUpdate === "tool_call_update");
    assert.equal(end.status, "failed");
    assert.doesNotMatch(JSON.stringify(end.content), /CONFIRM-ran\\n/);
    acp.answer = () => ({ outcome: { outcome: "cancelled" } });
  });

  test("an edit arrives as a diff; bash output streams", async () => {
    await prompt("[[write notes.txt hello world]]");
    const from = acp.updates.length;
    const result = await prompt("[[edit notes.txt hello => goodbye]]");
    assert.equal(result.stopReason, "end_turn");
    const isEdit = (u: SessionUpdate) => u.sessionUpdate === "tool_call" && u.kind === "edit";
    const call = await acp.waitForUpdate(isEdit, from);
    assert.ok(call.sessionUpdate === "tool_call");
    assert.deepEqual(call.content, [
      { type: "diff", path: "notes.txt", oldText: "hello", newText: "goodbye" },
    ]);
    const done = await acp.waitForUpdate(
      (u) =>
        u.sessionUpdate === "tool_call_update" &&
        u.toolCallId === call.toolCallId &&
        u.status === "completed",
      from,
    );
    assert.ok(done.sessionUpdate === "tool_call_update");
    assert.equal(done.content?.[0]?.type, "diff");

    const bashFrom = acp.updates.length;
    await prompt("[[bash printf 'one\\ntwo\\n']]");
    const output = await acp.waitForUpdate(
      (u) => u.sessionUpdate === "tool_call_update" && u.status === "completed",
      bashFrom,
    );
    assert.ok(output.sessionUpdate === "tool_call_update");
    assert.match(JSON.stringify(output.content), /one\\ntwo/);
  });

  test("session/list lists the session and session/load replays its history", async () => {
    const list = await acp.connection.agent.request(methods.agent.session.list, {});
    assert.ok(list.sessions.some((s) => s.sessionId === sessionId));
    // A second editor window: a new agent process loads the same session.
    const second = startAgent(["--url", bridge.served.url, "--token-file", bridge.tokenFile]);
    try {
      const other = connectClient(second);
      await initialize(other);
      await other.connection.agent.request(methods.agent.session.load, {
        sessionId,
        cwd: "/",
        mcpServers: [],
      });
      // Replayed before load answers.
      assert.match(textOf(other, "user_message_chunk"), /\[\[think pondering it\]\]/);
      assert.match(textOf(other, "agent_message_chunk"), /hello from the bridge/);
      const replayedEdit = other.updates.some(
        (n) =>
          n.update.sessionUpdate === "tool_call_update" && n.update.content?.[0]?.type === "diff",
      );
      assert.ok(replayedEdit, "the edit's diff is replayed");
    } finally {
      await second.stop();
    }
  });

  test("a second client on the same bridge session sees the same stream; control passes", async () => {
    const transport = await createNodeWebSocketTransport({
      url: `${bridge.served.url.replace(/^http/, "ws")}/sessions/${sessionId}/ws`,
      token: bridge.served.token,
      label: "Phone",
    });
    const viewer = await PiClient.connect(transport, { handshakeTimeoutMs: 30_000 });
    try {
      let seen = "";
      const off = viewer.onEvent((event: ClientEvent) => {
        if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") {
          seen += event.assistantMessageEvent.delta;
        }
      });
      const from = acp.updates.length;
      await prompt("[[text shared words for everyone]]");
      off();
      assert.equal(textOf(acp, "agent_message_chunk", from), "shared words for everyone");
      assert.equal(seen, "shared words for everyone");
      assert.equal(transport.control?.inControl, false);

      // The viewer takes control and prompts: the editor sees that run too.
      await transport.takeControl();
      const viewerFrom = acp.updates.length;
      await viewer.promptAndWait("[[text typed on the phone]]");
      await acp.waitForUpdate(
        (u) =>
          u.sessionUpdate === "agent_message_chunk" &&
          u.content.type === "text" &&
          u.content.text === "phone",
        viewerFrom,
      );
      assert.match(textOf(acp, "user_message_chunk", viewerFrom), /typed on the phone/);
      // The editor prompts again: it takes control back, as a tab does.
      const result = await prompt("[[text back in the editor]]");
      assert.equal(result.stopReason, "end_turn");
      assert.equal(transport.control?.inControl, false);
    } finally {
      await viewer.close();
    }
  });

  test("an input dialog is a form where the editor shows forms; notify is a notice", async () => {
    const forms = startAgent(["--url", bridge.served.url, "--token-file", bridge.tokenFile]);
    try {
      const editor = connectClient(forms);
      await initialize(editor, { elicitation: { form: {} }, session: { notices: {} } });
      const created = await editor.connection.agent.request(methods.agent.session.new, {
        cwd: "/",
        mcpServers: [],
      });
      const asked: string[] = [];
      editor.fill = (request) => {
        asked.push(request.message);
        return { action: "accept", content: { value: "typed in the editor" } };
      };
      const result = await editor.connection.agent.request(methods.agent.session.prompt, {
        sessionId: created.sessionId,
        prompt: [{ type: "text", text: "/ui input" }],
      });
      assert.equal(result.stopReason, "end_turn");
      assert.equal(asked.length, 1);
      const notice = await editor.waitForUpdate(
        (u) => u.sessionUpdate === "notice" && u.title.startsWith("result: input="),
      );
      assert.ok(notice.sessionUpdate === "notice");
      assert.equal(notice.title, 'result: input="typed in the editor"');
    } finally {
      await forms.stop();
    }
  });
});
