#!/usr/bin/env node
// Runs Astro on Node 22 from the `node` dev dependency (Astro 7 needs Node >= 22.12; the system
// Node may be 20), after generating the element pages (from the custom-elements manifest) and the API pages
// (from the API reports). Astro and Starlight come from site-deps/package-lock.json, installed into
// this package's node_modules on first use: the root `npm ci` on Node 20 leaves them out, as it
// would warn EBADENGINE for each of their packages.
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { installApart } from "../../../scripts/install-apart.mjs";
import { node22 } from "../../../scripts/runtimes.mjs";
import { generateApiPages } from "./api-pages.mjs";
import { generateElementPages } from "./element-pages.mjs";

const here = resolve(import.meta.dirname, "..");
generateElementPages();
generateApiPages();
const modules = installApart(join(here, "site-deps"), join(here, "node_modules"));
const astro = join(modules, "astro", "bin", "astro.mjs");
const run = spawnSync(node22().path, [astro, ...process.argv.slice(2)], {
  cwd: here,
  stdio: "inherit",
  env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1" },
});
process.exit(run.status ?? 1);
