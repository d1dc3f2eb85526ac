#!/usr/bin/env node
// Fails when `npm ci` would print EBADENGINE warnings on the oldest Node the repository supports
// (the minimum of the root package.json's `engines.node`): every package the root lockfile installs
// must accept it. Tools that need a newer Node (pi 1.x, the docs site's Astro) are installed on
// first use from lockfiles of their own, outside the workspace; see CONTRIBUTING.md.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import semver from "semver";
import { root } from "./runtimes.mjs";

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"));
const oldest = semver.minVersion(pkg.engines.node);

const refused = [];
for (const [path, entry] of Object.entries(lock.packages)) {
  // The root and workspace links are ours; npm skips optional packages a Node refuses instead of
  // warning (it leaves them out).
  if (path === "" || entry.link || entry.optional) continue;
  const range = entry.engines?.node;
  if (range && !semver.satisfies(oldest, range, { includePrerelease: true })) {
    refused.push(`${path} (${entry.version}) needs Node ${range}`);
  }
}
if (refused.length > 0) {
  console.error(
    `npm ci would warn EBADENGINE ${refused.length} times on Node ${oldest}:\n  ${refused.join("\n  ")}`,
  );
  process.exit(1);
}
console.log(
  `every package in package-lock.json accepts Node ${oldest}: npm ci prints no EBADENGINE`,
);
