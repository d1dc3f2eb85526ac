import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PiClient } from "@pi-kit/client";
import { spawnPi } from "@pi-kit/client/process";
import { piCommand, startModelServer } from "@pi-kit/testing";

const server = await startModelServer();
// An extension that loads once and fails when pi loads it again for a new session.
const pi = piCommand({ version: "1", baseUrl: server.baseUrl });
const extension = join(pi.workspace, "gate.ts");
writeFileSync(
  extension,
  `export default () => {
    if (globalThis.gateLoaded) throw new Error("gate.json is missing");
    globalThis.gateLoaded = true;
  };`,
);
const client = await PiClient.connect(
  await spawnPi({
    command: pi.command,
    args: [...pi.args, "-e", extension],
    cwd: pi.cwd,
    env: pi.env,
  }),
);
try {
  // pi 1.6 has no RPC record for this: it says so on stderr, which the client passes on (the
  // same event comes from a bridge, as its bridge_pi_stderr record).
  const said = new Promise<string>((resolve) =>
    client.on("pi_stderr", ({ text }) => resolve(text)),
  );
  await client.newSession();
  console.log(await said);
} finally {
  await client.close();
  await server.close();
  pi.dispose();
}
