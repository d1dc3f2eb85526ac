import { readFileSync } from "node:fs";
import { join } from "node:path";
import { serveBridge } from "@pi-kit/bridge/node";
import { BridgeUploads, PiClient } from "@pi-kit/client";
import { createNodeWebSocketTransport } from "@pi-kit/client/ws-node";
import { piCommand, sessionHostOptions, startModelServer } from "@pi-kit/testing";

const model = await startModelServer();
const pi = piCommand({ version: "1", baseUrl: model.baseUrl });
const served = await serveBridge({ ...sessionHostOptions(pi), port: 0, logger: () => {} });
const url = `${served.url.replace(/^http/, "ws")}/sessions/main/ws`;
const transport = await createNodeWebSocketTransport({ url, token: served.token });
const client = await PiClient.connect(transport);
const uploads = new BridgeUploads({
  baseUrl: served.url,
  session: "main",
  token: served.token,
  // Uploading is for the socket in control: it names itself (bridge_control's you.id).
  connectionId: () => transport.control?.you.id,
  chunkBytes: 4,
});
try {
  const file = new File(["name,score\nada,3\n"], "../scores.csv");
  const sent: number[] = [];
  const { path } = await uploads.upload(file, { onProgress: (received) => sent.push(received) });
  console.log(
    `${path.replace(/uploads\/[\w-]+\//, "uploads/{id}/")} after ${sent.join(", ")} bytes`,
  );
  const stored = readFileSync(join(pi.workspace, path), "utf8");
  console.log(`stored as sent: ${stored === (await file.text())}`);
  // The prompt names the file as `@path`; pi reads it from its workspace.
  client.on("tool_execution_end", (e) => {
    const text = (e.result as { content?: { text?: string }[] }).content?.[0]?.text ?? "";
    console.log(`pi's ${e.toolName}: ${text.split("\n")[1]}`);
  });
  await client.promptAndWait(`Summarise @${path} [[read ${path}]]`);
} finally {
  await client.close();
  await served.close();
  await model.close();
  pi.dispose();
}
