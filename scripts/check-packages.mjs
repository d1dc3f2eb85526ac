#!/usr/bin/env node
// Publishing checks for every public package: publint, attw (ESM-only profile), and a JSR dry run.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { deno, root } from "./runtimes.mjs";

const packages = readdirSync(join(root, "packages"))
  .map((dir) => join(root, "packages", dir))
  .filter((dir) => !JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).private);

function run(cmd, args, cwd) {
  const result = spawnSync(cmd, args, { cwd, stdio: "inherit", env: process.env });
  if (result.status !== 0) {
    console.error(`failed: ${cmd} ${args.join(" ")} in ${cwd}`);
    process.exit(1);
  }
}

for (const dir of packages) {
  console.log(`\n--- ${dir.slice(root.length + 1)}`);
  run("npx", ["publint", "--strict"], dir);
  run("npx", ["attw", "--pack", ".", "--profile", "esm-only"], dir);
}
// Deno-only example files are left out of tsc (no Deno globals there); Deno checks them.
run(deno, ["check", "packages/client/examples/deno.ts"], root);
// One workspace-wide dry run, as JSR would publish them together.
run(deno, ["publish", "--dry-run", "--allow-dirty"], root);
