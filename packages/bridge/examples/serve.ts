import { serveBridge } from "@pi-kit/bridge/node"; // or /deno, /bun: same API
import { PiClient } from "@pi-kit/client";
import { createNodeWebSocketTransport } from "@pi-kit/client/ws-node";
import { piCommand, sessionHostOptions, startModelServer } from "@pi-kit/testing";

// The scripted model stands in for a real provider. With your own pi and API key, pass
// `pi: { command: "pi", args: ["--mode", "rpc"], cwd: "/my/project" }` and a `sessionsDir`.
const model = await startModelServer();
const pi = piCommand({ version: "1", baseUrl: model.baseUrl });
const served = await serveBridge({
  ...sessionHostOptions(pi), // pi: { command, args, cwd, env } and sessionsDir
  port: 0,
  origins: ["https://app.example"],
  policy: { deny: ["bash"] },
  limits: { maxSessions: 8, graceMs: 60_000 },
});
console.log(`bridge on ${served.url}`);

// A web page connects with createWebSocketTransport({ url, token }); Node 20 has no WebSocket.
const transport = await createNodeWebSocketTransport({
  url: `${served.url.replace(/^http/, "ws")}/sessions/main/ws`,
  token: served.token,
});
const client = await PiClient.connect(transport);
try {
  let answer = "";
  client.on("message_update", ({ assistantMessageEvent: e }) => {
    if (e.type === "text_delta") answer += e.delta;
  });
  await client.promptAndWait("Say hello");
  console.log(`pi said: ${answer}`);
  const denied = await client.bash("ls").catch((error: Error) => error.message);
  console.log(`bash: ${denied}`);
} finally {
  await client.close();
  await served.close();
  await model.close();
  pi.dispose();
}
