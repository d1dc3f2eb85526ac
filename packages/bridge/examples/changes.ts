import { serveBridge } from "@pi-kit/bridge/node";
import { BridgeWorkspaceChanges, PiClient } from "@pi-kit/client";
import { createNodeWebSocketTransport } from "@pi-kit/client/ws-node";
import { piCommand, sessionHostOptions, startModelServer } from "@pi-kit/testing";

const model = await startModelServer();
const pi = piCommand({ version: "1", baseUrl: model.baseUrl });
const served = await serveBridge({ ...sessionHostOptions(pi), port: 0, logger: () => {} });
const url = `${served.url.replace(/^http/, "ws")}/sessions/main/ws`;
const transport = await createNodeWebSocketTransport({ url, token: served.token });
const client = await PiClient.connect(transport);
const changes = new BridgeWorkspaceChanges({
  baseUrl: served.url,
  session: "main",
  token: served.token,
  // Undoing is for the socket in control: it names itself (bridge_control's you.id).
  connectionId: () => transport.control?.you.id,
});
try {
  await client.promptAndWait("Note an idea [[write ideas.md first idea\\n]]");
  for (const file of (await changes.changes()).changes)
    console.log(`${file.status} ${file.path} +${file.additions} -${file.deletions}`);
  const [, turn] = await changes.checkpoints(); // the session start, then one per run
  if (turn !== undefined) {
    const after = await changes.restore(turn.id); // undo this turn
    console.log(`undid "${turn.label}": ${after.changes.length} files changed`);
  }
} finally {
  await client.close();
  await served.close();
  await model.close();
  pi.dispose();
}
