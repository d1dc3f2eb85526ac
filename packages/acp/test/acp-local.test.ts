/**
 * Live: without `--url`, `pi-kit-acp` starts a local pi (the command after `--`) per session, in
 * the editor's working directory: a streamed prompt ends `end_turn`; it keeps no sessions to load.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { methods } from "@agentclientprotocol/sdk";
import { type ModelServer, type PiCommand, piCommand, startModelServer } from "@pi-kit/testing";
import { connectClient, initialize, startAgent, textOf } from "./support/acp-harness.ts";

let model: ModelServer;
let pi: PiCommand;
before(async () => {
  model = await startModelServer();
  pi = piCommand({ version: "1", baseUrl: model.baseUrl });
});
after(async () => {
  pi.dispose();
  await model.close();
});

test("a local pi: new session in the editor's directory, a prompt ending end_turn", async () => {
  const agent = startAgent(["--", pi.command, ...pi.args], pi.env);
  try {
    const acp = connectClient(agent);
    const init = await initialize(acp);
    assert.equal(init.agentCapabilities?.loadSession, false);
    const { sessionId } = await acp.connection.agent.request(methods.agent.session.new, {
      cwd: pi.workspace,
      mcpServers: [],
    });
    const result = await acp.connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "[[bash pwd]]" }],
    });
    assert.equal(result.stopReason, "end_turn");
    assert.match(
      textOf(acp, "agent_message_chunk"),
      new RegExp(`Tool bash returned: ${pi.workspace}`),
    );
    await assert.rejects(
      acp.connection.agent.request(methods.agent.session.load, {
        sessionId,
        cwd: "/",
        mcpServers: [],
      }),
      /keeps no sessions to load/,
    );
  } finally {
    assert.equal(await agent.stop(), 0, agent.stderr());
  }
});
