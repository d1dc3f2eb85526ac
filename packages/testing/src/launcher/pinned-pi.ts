/**
 * The pi releases that pi-kit's own repository pins for its live tests and demo: each in
 * `pi-releases/<folder>/` next to this kit (a package.json and a package-lock.json, not an npm
 * workspace), installed with `npm ci` the first time a process asks for it. They need Node >=
 * 22.19, so a workspace install on Node 20 would warn about each of their packages; installed
 * apart, `npm ci` at the root stays quiet. A published copy of the kit has no such folder.
 * @module
 */

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { resolveNode22 } from "./runtime.ts";

/** This kit's package directory (`src/launcher` and `dist/launcher` are both two levels down). */
const KIT_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The repository's installer of lockfiles kept apart from the workspace. */
const INSTALLER = join(KIT_ROOT, "..", "..", "scripts", "install-apart.mjs");

/** Folders this process has already made sure of. */
const ensured = new Set<string>();

/** The folder of a pinned release, or undefined when this copy of the kit has none. */
export function pinnedReleaseFolder(folder: string): string | undefined {
  const dir = join(KIT_ROOT, "pi-releases", folder);
  return existsSync(join(dir, "package-lock.json")) && existsSync(INSTALLER) ? dir : undefined;
}

/**
 * The `node_modules` of the pinned release in `dir`, installed from its lockfile when missing or
 * outdated by the repository's `scripts/install-apart.mjs` (once per lockfile, safe when several
 * processes ask at once), run on Node: this process may be Deno or Bun.
 */
export function ensurePinnedRelease(dir: string): string {
  if (!ensured.has(dir)) {
    // stderr passes through: the installer says there what it installs, or why it failed.
    const run = spawnSync(resolveNode22(), [INSTALLER, dir], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    if (run.status !== 0) {
      throw new Error(
        `Installing the pinned pi in ${dir} failed (${run.error?.message ?? `exit ${run.status}`}; see above)`,
      );
    }
    ensured.add(dir);
  }
  return join(dir, "node_modules");
}
