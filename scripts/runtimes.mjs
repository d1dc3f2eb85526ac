// Finds the JavaScript runtimes the tests run on. Plain JS so it runs before anything is built.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const bin = join(root, "node_modules", ".bin");

function version(file) {
  try {
    return execFileSync(file, ["--version"], { encoding: "utf8" }).trim();
  } catch {
    return undefined;
  }
}

/**
 * The machine's own Node: the first `node` on PATH outside any node_modules/.bin. Inside npm
 * scripts, node_modules/.bin comes first and holds Node 22 from the `node@22` package, so a bare
 * `node` there is not the Node a user has.
 */
export function systemNode() {
  const candidates = [
    process.env.PI_KIT_NODE20,
    ...(process.env.PATH ?? "")
      .split(delimiter)
      .filter((dir) => dir && !dir.includes("node_modules"))
      .map((dir) => join(dir, "node")),
    "/usr/bin/node",
    "/usr/local/bin/node",
  ];
  for (const file of candidates) {
    if (!file || !existsSync(file)) continue;
    const v = version(file);
    if (v) return { path: file, version: v, major: Number(v.slice(1).split(".")[0]) };
  }
  throw new Error("No system Node.js found on PATH (need Node >= 20).");
}

/** Node 22 from the `node@22` dev dependency. */
export function node22() {
  const file = join(root, "node_modules", "node", "bin", "node");
  const v = existsSync(file) ? version(file) : undefined;
  if (!v) throw new Error("Node 22 from the node@22 dev dependency is missing: run `npm ci`.");
  return { path: file, version: v, major: Number(v.slice(1).split(".")[0]) };
}

/** Deno and Bun from their npm packages. */
export const deno = join(bin, "deno");
export const bun = join(bin, "bun");
export { root };
