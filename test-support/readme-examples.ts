/**
 * README examples are real files under `<package>/examples/`, shown verbatim in the package's
 * README and run by its tests, so the README cannot drift from code that works.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

/** Checks that the package README shows each example verbatim; returns their paths by file name. */
export function readmeExamples(pkg: URL): Map<string, string> {
  const readme = readFileSync(new URL("README.md", pkg), "utf8");
  const examples = new Map<string, string>();
  for (const name of readdirSync(new URL("examples/", pkg)).sort()) {
    if (!name.endsWith(".ts")) continue;
    const path = fileURLToPath(new URL(`examples/${name}`, pkg));
    assert.ok(
      readme.includes(readFileSync(path, "utf8").trim()),
      `README.md does not show examples/${name}`,
    );
    examples.set(name, path);
  }
  assert.ok(examples.size > 0, "the package has no examples");
  return examples;
}

/** Runs an example module in this process and returns the lines it printed with `console.log`. */
export async function runExample(path: string): Promise<string[]> {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => lines.push(args.join(" "));
  try {
    await import(pathToFileURL(path).href);
  } finally {
    console.log = log;
  }
  return lines;
}
