/**
 * External links are checked against a committed list of known-good addresses
 * (known-good-links.txt), so the build's tests pass offline (as lit.dev's link check does); a new
 * external link fails here until it is checked (`node scripts/check-links-online.mjs`, with a
 * network) and added to the list.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { dist } from "./static-server.ts";

const known = new Set(
  readFileSync(new URL("../known-good-links.txt", import.meta.url), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#")),
);

/** Every external link (`<a href="http…">`) of the built pages, with a page that has it. */
function externalLinks(dir = dist, found = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) externalLinks(file, found);
    else if (name.endsWith(".html")) {
      for (const [, href] of readFileSync(file, "utf8").matchAll(
        /<a[^>]*\shref="(https?:\/\/[^"]+)"/g,
      )) {
        const url = (href as string).replace(/&amp;/g, "&");
        if (!found.has(url)) found.set(url, file.slice(dist.length));
      }
    }
  }
  return found;
}

test("every external link of the site is on the known-good list", () => {
  const links = externalLinks();
  assert.ok(links.size > 0, "no external link found: is the site built?");
  const unknown = [...links]
    .filter(([url]) => !known.has(url))
    .map(([url, page]) => `${url} (${page})`);
  assert.deepEqual(unknown, []);
});
