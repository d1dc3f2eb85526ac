import { PiClient } from "@pi-kit/client";
import { spawnPi } from "@pi-kit/client/process";
import { piCommand, startModelServer } from "@pi-kit/testing";

const server = await startModelServer();
// The test kit's ui-probe extension adds `/ui confirm`, which asks "Sure?" and reports the answer.
const pi = piCommand({ version: "1", baseUrl: server.baseUrl, uiProbe: true });
const client = await PiClient.connect(
  await spawnPi({ command: pi.command, args: [...pi.args], cwd: pi.cwd, env: pi.env }),
  { dialogHandler: "manual" },
);
try {
  // A UI renders `session.dialogs` and answers when the user clicks, however long that takes.
  client.session.subscribe(() => {
    for (const { request } of client.session.getSnapshot().dialogs) {
      if (client.ui.answer(request.id, true))
        console.log(`answered ${request.method}: ${request.title}`);
    }
  });
  client.on("extension_ui_request", (e) => {
    if (e.method === "notify") console.log(e.message);
  });
  await client.prompt("/ui confirm");
} finally {
  await client.close();
  await server.close();
  pi.dispose();
}
