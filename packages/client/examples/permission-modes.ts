import { existsSync } from "node:fs";
import { join } from "node:path";
import { PiClient } from "@pi-kit/client";
import { permissionModes, spawnPi } from "@pi-kit/client/process";
import { piCommand, startModelServer } from "@pi-kit/testing";

const server = await startModelServer();
// pi-kit's permission extension, in `ask`: every edit, write and bash call asks first.
const permissions = permissionModes({ mode: "ask" });
const pi = piCommand({
  version: "1",
  baseUrl: server.baseUrl,
  args: permissions.args,
  env: permissions.env,
});
const client = await PiClient.connect(
  await spawnPi({ command: pi.command, args: [...pi.args], cwd: pi.cwd, env: pi.env }),
  {
    // The question is a select: "Allow once", "Allow for this session" or "Deny".
    dialogHandler: (request) => {
      console.log(`asked: ${request.title.split("\n")[0]}`);
      return "Deny";
    },
  },
);
try {
  await client.promptAndWait("[[write notes.txt hello]]");
  console.log(`written: ${existsSync(join(pi.workspace, "notes.txt"))}`);
} finally {
  await client.close();
  await server.close();
  pi.dispose();
}
