import { PiClient } from "@pi-kit/client";
import { spawnDeno } from "@pi-kit/client/deno";
import { piCommand, startModelServer } from "@pi-kit/testing";

// The scripted model stands in for a real provider; with your own pi and API key,
// `await spawnDeno()` runs `pi --mode rpc` from PATH instead.
const server = await startModelServer();
const pi = piCommand({ version: "1", baseUrl: server.baseUrl });
const transport = await spawnDeno({
  command: pi.command,
  args: [...pi.args],
  cwd: pi.cwd,
  env: pi.env,
  inheritEnv: false,
});
const client = await PiClient.connect(transport);
try {
  client.on("message_update", ({ assistantMessageEvent: e }) => {
    if (e.type === "text_delta") Deno.stdout.writeSync(new TextEncoder().encode(e.delta));
  });
  client.on("tool_execution_end", (e) => console.log(`\n[${e.toolName} done]`));
  const run = await client.promptAndWait("[[bash echo hello from bash]]");
  console.log(`\n${run.disposition}, pi ${client.capabilities.versionLine}`);
} finally {
  await client.close();
  await server.close();
  pi.dispose();
}
