import { PiClient, PiClientError } from "@pi-kit/client";
import { spawnPi } from "@pi-kit/client/process";
import { piCommand, startModelServer } from "@pi-kit/testing";

const server = await startModelServer();
const pi = piCommand({ version: "1", baseUrl: server.baseUrl });
const client = await PiClient.connect(
  await spawnPi({ command: pi.command, args: [...pi.args], cwd: pi.cwd, env: pi.env }),
);
try {
  client.on("diagnostic", (d) => console.log(`diagnostic ${d.kind}`));
  // A command this package does not know (a newer pi's) goes out as it is; pi answers for itself.
  try {
    await client.send({ type: "get_tools", verbose: true });
  } catch (error) {
    if (error instanceof PiClientError) console.log(`${error.code}: ${error.message}`);
  }
  console.log(`supports get_tools: ${client.capabilities.supports("get_tools")}`);
  // A known one is checked field by field first; the answer is pi's whole response.
  const response = await client.send({ type: "get_state" });
  console.log(`get_state: ${response.success}`);
} finally {
  await client.close();
  await server.close();
  pi.dispose();
}
