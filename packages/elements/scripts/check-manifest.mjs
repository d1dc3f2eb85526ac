#!/usr/bin/env node
// Fails when custom-elements.json is not what `npm run analyze` would generate now.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const pkg = new URL("..", import.meta.url).pathname;
// The analyzer resolves --outdir against the working directory, so keep it inside the package.
const outdir = "node_modules/.cem-check";
const out = join(pkg, outdir);
const run = spawnSync(
  "npx",
  [
    "cem",
    "analyze",
    "--litelement",
    "--globs",
    "src/**/*.ts",
    "--exclude",
    "src/**/*.styles.ts",
    "--outdir",
    outdir,
  ],
  { cwd: pkg, encoding: "utf8" },
);
if (run.status !== 0) {
  console.error(run.stderr || run.stdout);
  process.exit(1);
}
const fresh = readFileSync(join(out, "custom-elements.json"), "utf8");
rmSync(out, { recursive: true, force: true }); // cleanup
const committed = readFileSync(join(pkg, "custom-elements.json"), "utf8");
if (fresh !== committed) {
  console.error("custom-elements.json is out of date: run `npm run analyze -w @pi-kit/elements`.");
  process.exit(1);
}
console.log("custom-elements.json is current.");
