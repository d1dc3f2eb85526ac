#!/usr/bin/env node
// Builds the demo and what it depends on (turbo, cached) before `npm start`, printing turbo's
// output only when the build fails, so the terminal shows the demo's own lines and nothing else.
// Arguments replace the demo as what to build (turbo filters: `@pi-kit/example-react...`).
import { spawnSync } from "node:child_process";

const filters = process.argv.length > 2 ? process.argv.slice(2) : ["@pi-kit/demo..."];
const build = spawnSync(
  "turbo",
  ["run", "build", ...filters.map((f) => `--filter=${f}`), "--output-logs=errors-only"],
  { encoding: "utf8", env: { TURBO_TELEMETRY_DISABLED: "1", ...process.env } },
);
if (build.status !== 0) {
  process.stdout.write(build.stdout ?? "");
  process.stderr.write(build.stderr ?? "");
  console.error(build.error ? `Cannot run turbo: ${build.error.message}` : "The build failed.");
  process.exit(build.status || 1);
}
