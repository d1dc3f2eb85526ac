import { serveBridge } from "@pi-kit/bridge/node";
import { BridgeSessionHistory, PiClient } from "@pi-kit/client";
import { createNodeWebSocketTransport } from "@pi-kit/client/ws-node";
import { piCommand, sessionHostOptions, startModelServer } from "@pi-kit/testing";

const model = await startModelServer();
const pi = piCommand({ version: "1", baseUrl: model.baseUrl });
const bridge = await serveBridge({ ...sessionHostOptions(pi), port: 0 });
const history = new BridgeSessionHistory({ baseUrl: bridge.url, token: bridge.token });

/** A client on session `name` (which starts its pi, or resumes it from its files). */
async function open(name: string): Promise<PiClient> {
  const url = `${bridge.url.replace(/^http/, "ws")}/sessions/${name}/ws`;
  return PiClient.connect(await createNodeWebSocketTransport({ url, token: bridge.token }));
}

try {
  const client = await open("parser-fix");
  await client.promptAndWait("Why is the parser slow?");
  await client.close();

  // Stop its pi (the files stay), name it, and find it in the history.
  await history.stop("parser-fix");
  await history.rename("parser-fix", "Parser speed");
  const { sessions } = await history.list({ limit: 20, query: "parser" });
  for (const s of sessions)
    console.log(`${s.name}: "${s.title}", ${s.messageCount} messages, ${s.state}`);

  // Opening it again starts pi on its session file: the conversation is back.
  const again = await open("parser-fix");
  console.log(`resumed with ${again.session.getSnapshot().messages.length} messages`);
  await again.close();

  await history.delete("parser-fix");
  console.log(`after delete: ${(await history.list()).sessions.length} sessions`);
} finally {
  await bridge.close();
  await model.close();
  pi.dispose();
}
