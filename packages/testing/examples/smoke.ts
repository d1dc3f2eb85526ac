import { launchPi, startModelServer } from "@pi-kit/testing";

const server = await startModelServer();
const pi = await launchPi({ version: "1", baseUrl: server.baseUrl });
try {
  await pi.request({ type: "get_state" }); // readiness handshake
  const since = pi.mark();
  await pi.request({ type: "prompt", message: "[[bash echo hi]]" });
  const end = await pi.waitForType("tool_execution_end", { since });
  await pi.waitForType("agent_settled", { since }); // "agent_end" on pi 0.73.1
  console.log(end.toolName, "finished");
} finally {
  await pi.close();
  await server.close();
}
