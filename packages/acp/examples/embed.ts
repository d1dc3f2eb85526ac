import { client, methods, ndJsonStream } from "@agentclientprotocol/sdk";
import { bridgeBackend, connectAcpAgent } from "@pi-kit/acp";
import { serveBridge } from "@pi-kit/bridge/node";
import { piCommand, sessionHostOptions, startModelServer } from "@pi-kit/testing";

// A bridge on the scripted model stands in for yours (`--url` and its token in `pi-kit-acp`).
const model = await startModelServer();
const pi = piCommand({ version: "1", baseUrl: model.baseUrl });
const bridge = await serveBridge({ ...sessionHostOptions(pi), port: 0, logger: () => {} });

// The agent on two in-memory pipes instead of stdio; an editor (here the SDK's client) on the other ends.
const toEditor = new TransformStream<Uint8Array, Uint8Array>();
const toAgent = new TransformStream<Uint8Array, Uint8Array>();
const agent = connectAcpAgent(
  { backend: bridgeBackend({ url: bridge.url, token: bridge.token }) },
  toEditor.writable,
  toAgent.readable,
);
let answer = "";
const editor = client({ name: "example-editor" })
  .onNotification(methods.client.session.update, ({ params: { update } }) => {
    if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text") {
      answer += update.content.text;
    }
  })
  .connect(ndJsonStream(toAgent.writable, toEditor.readable));

await editor.agent.request(methods.agent.initialize, {
  protocolVersion: 1,
  clientCapabilities: {},
});
const { sessionId } = await editor.agent.request(methods.agent.session.new, {
  cwd: process.cwd(),
  mcpServers: [],
});
const { stopReason } = await editor.agent.request(methods.agent.session.prompt, {
  sessionId,
  prompt: [{ type: "text", text: "Say hello" }],
});
console.log(`${stopReason}: ${answer}`);
const { sessions } = await editor.agent.request(methods.agent.session.list, {});
console.log(`listed: ${sessions.some((s) => s.sessionId === sessionId)}`);

editor.close();
agent.close(); // its sessions close with it; on the bridge they go on
await agent.closed;
await bridge.close();
await model.close();
pi.dispose();
