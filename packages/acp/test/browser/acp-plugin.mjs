// A web-test-runner plugin for the <pi-chat> viewer test: a real bridge (pi 1.x, scripted model),
// and `pi-kit-acp` driven by the ACP SDK's client on one of its sessions. It serves
// `/__acp.json` ({wsUrl, token}) and `/__acp/prompt?text=` (an ACP prompt on that session; answers
// {stopReason, chunks}: the text of each agent_message_chunk the editor got).
// Load the runner with `node --import tsx --conditions=@pi-kit/source` (see wtr-acp.config.mjs).
import { methods } from "@agentclientprotocol/sdk";
import { connectClient, initialize, startAgent, startTestBridge } from "../support/acp-harness.ts";

/** Starts the bridge and the agent with the test server, and stops them with it. */
export function acpViewerPlugin() {
  let bridge;
  let agent;
  let acp;
  let sessionId;
  return {
    name: "pi-kit-acp-viewer",
    async serverStart() {
      bridge = await startTestBridge(["*"]);
      agent = startAgent(["--url", bridge.served.url, "--token-file", bridge.tokenFile]);
      acp = connectClient(agent);
      await initialize(acp);
      ({ sessionId } = await acp.connection.agent.request(methods.agent.session.new, {
        cwd: "/",
        mcpServers: [],
      }));
    },
    async serverStop() {
      await agent?.stop();
      await bridge?.dispose();
    },
    async serve(context) {
      if (context.path === "/__acp.json") {
        const wsUrl = `${bridge.served.url.replace(/^http/, "ws")}/sessions/${sessionId}/ws`;
        return {
          body: JSON.stringify({ wsUrl, token: bridge.served.token }),
          type: "application/json",
        };
      }
      if (context.path === "/__acp/prompt") {
        const from = acp.updates.length;
        const { stopReason } = await acp.connection.agent.request(methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text: context.query.text }],
        });
        const chunks = acp.updates
          .slice(from)
          .map((n) => n.update)
          .filter((u) => u.sessionUpdate === "agent_message_chunk" && u.content.type === "text")
          .map((u) => u.content.text);
        return { body: JSON.stringify({ stopReason, chunks }), type: "application/json" };
      }
      return undefined;
    },
  };
}
