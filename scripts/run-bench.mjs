#!/usr/bin/env node
// Runs the benchmarks of one or more areas (bench/<area>/*.bench.ts) on Node 22, one after another.
// BENCH_QUICK=1 makes it the short smoke run that `npm test` includes.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { node22, root } from "./runtimes.mjs";

// Usage: run-bench.mjs <area> [area...]
const files = process.argv.slice(2).flatMap((area) =>
  readdirSync(join(root, "bench", area))
    .filter((f) => f.endsWith(".bench.ts"))
    .sort()
    .map((file) => ({ area, file, dir: join(root, "bench", area) })),
);
// A benchmark that hangs fails its run instead of holding CI until its own limit; GNU timeout
// kills the benchmark's process group (its pi and bridge processes too).
const limit = process.env.BENCH_QUICK === "1" ? "10m" : "90m";
let status = 0;
for (const { area, file, dir } of files) {
  console.log(`\n=== bench/${area}/${file}`);
  const args = [node22().path, "--conditions=@pi-kit/source", join(dir, file)];
  const run = spawnSync("timeout", ["--signal=KILL", limit, ...args], {
    cwd: root,
    stdio: "inherit",
  });
  if (run.status === 137) console.error(`bench/${area}/${file} did not finish in ${limit}: killed`);
  if (run.status !== 0) status = 1;
}
process.exit(status);
