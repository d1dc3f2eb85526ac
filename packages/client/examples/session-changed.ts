import { PiClient } from "@pi-kit/client";
import { spawnPi } from "@pi-kit/client/process";
import { piCommand, startModelServer } from "@pi-kit/testing";

const server = await startModelServer();
const pi = piCommand({ version: "1", baseUrl: server.baseUrl, sessionDir: true });
const client = await PiClient.connect(
  await spawnPi({ command: pi.command, args: [...pi.args], cwd: pi.cwd, env: pi.env }),
);
try {
  // Refresh what shows the session here (tree, stats, pickers): `client.session` already shows
  // the new one, so nothing needs `session.resync()`.
  client.on("session_changed", ({ reason }) => {
    const asked = client.session.getSnapshot().messages.filter((m) => m.role === "user");
    console.log(`${reason}: ${asked.length} question(s) shown`);
  });
  await client.promptAndWait("first question");
  await client.promptAndWait("second question");
  const [, second] = await client.getForkMessages();
  if (second !== undefined) await client.fork(second.entryId); // before the second question
  await client.newSession();
} finally {
  await client.close();
  await server.close();
  pi.dispose();
}
