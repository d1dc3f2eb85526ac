#!/usr/bin/env node
// Builds the demo and what it depends on (turbo, cached) before `npm start`, printing turbo's
// output only when the build fails, so the terminal shows the demo's own lines and nothing else.
import { spawnSync } from "node:child_process";

const build = spawnSync(
  "turbo",
  ["run", "build", "--filter=@pi-kit/demo...", "--output-logs=errors-only"],
  { encoding: "utf8", env: { TURBO_TELEMETRY_DISABLED: "1", ...process.env } },
);
if (build.status !== 0) {
  process.stdout.write(build.stdout ?? "");
  process.stderr.write(build.stderr ?? "");
  console.error(build.error ? `Cannot run turbo: ${build.error.message}` : "The build failed.");
  process.exit(build.status || 1);
}
