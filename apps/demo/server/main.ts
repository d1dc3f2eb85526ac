/**
 * `npm start`: serves the built demo page and the bridge on http://127.0.0.1:8787 (or `PORT`),
 * with real pi 1.x on the embedded scripted model unless a provider is configured.
 */
import { existsSync } from "node:fs";
import { distDir, startDemoServer } from "./demo-server.ts";

if (!existsSync(distDir)) {
  console.error("The demo page is not built: run `npm start` from the repository root.");
  process.exit(1);
}
const demo = await startDemoServer({ port: Number(process.env.PORT ?? 8787), staticRoot: distDir });
console.log(`pi-kit demo: ${demo.pi.label}`);
console.log(`Open ${demo.openUrl}`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    // Every pi gets its stdin closed first, so it can flush its session file.
    void demo.close().then(() => process.exit(0));
  });
}
