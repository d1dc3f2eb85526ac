/**
 * Finds the Node binaries the two pi lines need: 1.x wants Node >= 22.19, 0.73.1 runs on Node 20.
 * @module
 */

import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

/** The fallback system Node 20 (Debian's `nodejs`). */
const SYSTEM_NODE = "/usr/bin/node";

/** True when this process is Node itself, not Deno or Bun (both report a `process.versions.node`). */
function isRealNode(): boolean {
  const g = globalThis as { Deno?: unknown; Bun?: unknown };
  return g.Deno === undefined && g.Bun === undefined && process.versions.bun === undefined;
}

/** `[major, minor]` of a `vX.Y.Z` or `X.Y.Z` version string. */
function majorMinor(version: string): [number, number] {
  const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
  return [major, minor];
}

/** `node --version` of a binary, or undefined when it does not run. */
export function nodeVersionOf(binary: string): string | undefined {
  try {
    return execFileSync(binary, ["--version"], { encoding: "utf8", timeout: 10_000 }).trim();
  } catch {
    return undefined;
  }
}

/** Looks for `node_modules/<rel>` in `start` and each parent directory. */
export function findInNodeModules(start: string, rel: string): string | undefined {
  let dir = start;
  for (;;) {
    const candidate = join(dir, "node_modules", rel);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Directories searched for packages: this kit's own location first, then the working directory. */
export function searchRoots(): string[] {
  return [dirname(fileURLToPath(import.meta.url)), process.cwd()];
}

/**
 * Node >= 22.19 for pi 1.x: `PI_KIT_NODE22`, else this process when it is such a Node,
 * else the `node` npm package's binary (`node@22`), else `node` on PATH if new enough.
 */
export function resolveNode22(): string {
  const fromEnv = process.env.PI_KIT_NODE22;
  if (fromEnv) return fromEnv;
  const [major, minor] = majorMinor(process.versions.node ?? "0.0");
  if (isRealNode() && (major > 22 || (major === 22 && minor >= 19))) return process.execPath;
  for (const root of searchRoots()) {
    const binary = findInNodeModules(root, "node/bin/node");
    if (binary) return binary;
  }
  const version = nodeVersionOf("node");
  if (version) {
    const [m, n] = majorMinor(version);
    if (m > 22 || (m === 22 && n >= 19)) return "node";
  }
  throw new Error(
    "pi 1.x needs Node >= 22.19: set PI_KIT_NODE22, or install the `node@22` npm package (npm i -D node@22).",
  );
}

/**
 * Node 20 for pi 0.73.1: `PI_KIT_NODE20`, else this process when it is Node 20,
 * else `/usr/bin/node` when that is v20. Never bare `node`: inside npm scripts it is often 22.
 */
export function resolveNode20(): string {
  const fromEnv = process.env.PI_KIT_NODE20;
  if (fromEnv) return fromEnv;
  if (isRealNode() && majorMinor(process.versions.node ?? "0")[0] === 20) return process.execPath;
  const version = nodeVersionOf(SYSTEM_NODE);
  if (version && majorMinor(version)[0] === 20) return SYSTEM_NODE;
  throw new Error(
    `pi 0.73.1 runs on Node 20: set PI_KIT_NODE20 to a Node 20 binary (${SYSTEM_NODE} is ${version ?? "missing"}).`,
  );
}
