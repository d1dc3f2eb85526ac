/**
 * `npm start`: serves the built demo page and the bridge on http://127.0.0.1:8787 (or `PORT`),
 * with real pi 1.x on the embedded scripted model unless a provider is configured. The token is
 * kept in the demo's state dir, so a restart leaves open tabs working. Quiet by default (one
 * line per session start and stop); `npm start -- --verbose` prints the bridge's JSON log.
 */
import { existsSync } from "node:fs";
import { distDir } from "./demo-server.ts";
import { startForTerminal, stopOnSignals } from "./terminal.ts";

if (!existsSync(distDir)) {
  console.error("The demo page is not built: run `npm start` from the repository root.");
  process.exit(1);
}
const { demo, log } = await startForTerminal({
  port: Number(process.env.PORT ?? 8787),
  staticRoot: distDir,
});
// Every pi gets its stdin closed first, so it can flush its session file. Installed before the
// URL is printed: whoever reads it may press Ctrl-C at once.
stopOnSignals(log, () => demo.close());
console.log(`pi-kit demo: ${demo.pi.label}`);
console.log(`Open ${demo.openUrl}`);
