/**
 * `npm start -w @pi-kit/example-<name>`: builds the example with its own tooling (turbo, cached),
 * then serves its page with the demo's server: the bridge, and real pi 1.x on the embedded
 * scripted model (no API key). Prints the URL to open; Ctrl-C stops it. `PORT` picks the port
 * (default 8787; 0 picks a free one).
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startDemoServer } from "../apps/demo/server/demo-server.ts";
import { exitIfPortBusy, stopOnSignals } from "../apps/demo/server/terminal.ts";
import { terminalLog } from "../apps/demo/server/terminal-log.ts";
import { EXAMPLES, type ExampleName, layOutSite } from "./site.ts";

const name = process.argv[2] as ExampleName;
if (!EXAMPLES.includes(name)) {
  console.error(`Name an example: ${EXAMPLES.join(", ")}`);
  process.exit(2);
}
// The embed page uses the elements' one-file bundle and no build of its own.
const build = spawnSync(
  process.execPath,
  [
    fileURLToPath(new URL("../apps/demo/scripts/build-quietly.mjs", import.meta.url)),
    name === "embed" ? "@pi-kit/elements" : `@pi-kit/example-${name}...`,
  ],
  { stdio: "inherit" },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const root = layOutSite([name]);
// biome-ignore lint/suspicious/noUndeclaredEnvVars: this script runs by itself (npm start -w), never as a turbo task
const port = Number(process.env.PORT ?? 8787);
const log = terminalLog(process.argv.includes("--verbose"));
const demo = await startDemoServer({ port, staticRoot: root, logger: log.logger }).catch(
  (error: unknown) => {
    rmSync(root, { recursive: true, force: true });
    exitIfPortBusy(error, port, "stop it, or choose another with PORT=<port>");
    throw error;
  },
);
stopOnSignals(log, async () => {
  await demo.close();
  rmSync(root, { recursive: true, force: true });
});
console.log(`pi-kit example ${name}: ${demo.pi.label}`);
console.log(`Open ${demo.url}/${name}/#token=${demo.token}`);
