/**
 * Documented examples are real files under `<package>/examples/`, shown verbatim in the package's
 * README or on a hand-written page of the docs site (`apps/docs/src/content/docs/`), and run by
 * the package's tests, so the documentation cannot drift from code that works.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const docsPages = fileURLToPath(new URL("../apps/docs/src/content/docs/", import.meta.url));

/** The hand-written pages of the docs site (the generated element and API pages are not). */
function pages(dir = docsPages): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = join(dir, name);
    if (statSync(file).isDirectory())
      return name === "elements" || name === "api" ? [] : pages(file);
    return /\.mdx?$/.test(name) ? [file] : [];
  });
}

/** The text of the page (the README or a docs page) that shows `code` verbatim, or undefined. */
export function pageShowing(pkg: URL, code: string): string | undefined {
  const shown = code.trim();
  for (const file of [fileURLToPath(new URL("README.md", pkg)), ...pages()]) {
    const text = readFileSync(file, "utf8");
    if (text.includes(shown)) return text;
  }
  return undefined;
}

/** Checks that the README or a docs page shows each example verbatim; returns their paths by file name. */
export function readmeExamples(pkg: URL): Map<string, string> {
  const examples = new Map<string, string>();
  for (const name of readdirSync(new URL("examples/", pkg)).sort()) {
    if (!name.endsWith(".ts")) continue;
    const path = fileURLToPath(new URL(`examples/${name}`, pkg));
    assert.ok(
      pageShowing(pkg, readFileSync(path, "utf8")) !== undefined,
      `neither README.md nor a page of the docs site shows examples/${name}`,
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
