#!/usr/bin/env node
// Runs Astro on Node 22 from the `node` dev dependency (Astro 7 needs Node >= 22.12; the system
// Node may be 20), after generating the element pages (from the custom-elements manifest) and the API pages
// (from the API reports).
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { node22, root } from "../../../scripts/runtimes.mjs";
import { generateApiPages } from "./api-pages.mjs";
import { generateElementPages } from "./element-pages.mjs";

const here = resolve(import.meta.dirname, "..");
generateElementPages();
generateApiPages();
const astro = join(root, "node_modules", "astro", "bin", "astro.mjs");
const run = spawnSync(node22().path, [astro, ...process.argv.slice(2)], {
  cwd: here,
  stdio: "inherit",
  env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1" },
});
process.exit(run.status ?? 1);
