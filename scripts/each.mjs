#!/usr/bin/env node
// Runs each argument as a shell command, in order, whether or not the one before passed, and
// exits non-zero if any failed: a package's test script whose first runner fails still runs the
// others, so one `npm test` reports every failure. A command may be a chain (`a && b`) where the
// later part only makes sense after the first (installing Chromium, then the browser tests).
// Usage: each.mjs "<command>" ["<command>" ...]
import { spawnSync } from "node:child_process";

const failed = [];
for (const command of process.argv.slice(2)) {
  const run = spawnSync(command, { shell: true, stdio: "inherit" });
  if (run.status !== 0) failed.push(`${command} (exit ${run.status ?? run.signal})`);
}
if (failed.length > 0) console.error(`\nfailed: ${failed.join("; ")}`);
process.exit(failed.length === 0 ? 0 : 1);
