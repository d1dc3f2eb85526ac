/**
 * Locates the installed pi CLIs: `@earendil-works/pi-coding-agent` (1.x) and
 * `@mariozechner/pi-coding-agent` (0.73.1).
 * @module
 */

import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { findInNodeModules, searchRoots } from "./runtime.ts";

/** Which pi line to launch: `"1"` is pi 1.x, `"0.73"` is pi 0.73.1. */
export type PiVersion = "1" | "0.73";

/** npm package of each pi line. */
export const PI_PACKAGES: Readonly<Record<PiVersion, string>> = {
  "1": "@earendil-works/pi-coding-agent",
  "0.73": "@mariozechner/pi-coding-agent",
};

/** An installed pi: its CLI entry file and version. */
export interface PiInstall {
  /** Absolute path of the `pi` bin (`dist/bundle/cli.js` on 1.x, `dist/cli.js` on 0.73). */
  readonly cliPath: string;
  /** `version` from its package.json. */
  readonly version: string;
  /** Package root directory. */
  readonly root: string;
}

interface PackageJson {
  readonly name?: string;
  readonly version?: string;
  readonly bin?: string | Readonly<Record<string, string>>;
}

function readPackage(root: string): PackageJson {
  return JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as PackageJson;
}

/** Walks up from a resolved entry file to the package root that has this name. */
function packageRootAbove(file: string, name: string): string | undefined {
  let dir = dirname(file);
  for (;;) {
    if (existsSync(join(dir, "package.json")) && readPackage(dir).name === name) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Finds the package root. Neither pi exports `./package.json`, so resolve the main entry
 * with `import.meta.resolve` and walk up; fall back to scanning `node_modules` directories
 * (runtimes differ in how they resolve bare names from a dependency's source).
 */
function findPackageRoot(name: string): string | undefined {
  try {
    const entry = import.meta.resolve(name);
    if (entry.startsWith("file:")) {
      const root = packageRootAbove(fileURLToPath(entry), name);
      if (root) return root;
    }
  } catch {
    // Not resolvable from here; scan below.
  }
  for (const start of searchRoots()) {
    const root = findInNodeModules(start, name);
    if (root) return root;
  }
  return undefined;
}

/** Resolves the pi CLI of `version`, throwing an install hint when it is missing. */
export function resolvePi(version: PiVersion): PiInstall {
  const name = PI_PACKAGES[version];
  const root = findPackageRoot(name);
  if (!root) {
    const spec = version === "1" ? `${name}@1` : `${name}@0.73.1`;
    throw new Error(`Cannot find ${name}; install it next to @pi-kit/testing: npm i -D ${spec}`);
  }
  const pkg = readPackage(root);
  const bin = typeof pkg.bin === "string" ? pkg.bin : pkg.bin?.pi;
  if (!bin) throw new Error(`${name} at ${root} has no "pi" bin`);
  return { cliPath: resolve(root, bin), version: pkg.version ?? "unknown", root };
}
