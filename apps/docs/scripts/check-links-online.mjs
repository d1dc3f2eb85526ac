#!/usr/bin/env node
// With a network: fetches every external link of the built site (dist/) and prints the ones that
// answer 2xx or 3xx, for known-good-links.txt (the offline test reads that list). Not run by CI.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const dist = resolve(import.meta.dirname, "..", "dist");
const links = new Set();
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) walk(file);
    else if (name.endsWith(".html"))
      for (const [, href] of readFileSync(file, "utf8").matchAll(
        /<a[^>]*\shref="(https?:\/\/[^"]+)"/g,
      ))
        links.add(href.replace(/&amp;/g, "&"));
  }
};
walk(dist);
for (const url of [...links].sort()) {
  const response = await fetch(url, { method: "HEAD", redirect: "follow" }).catch((error) => error);
  if (response instanceof Error || !response.ok)
    console.error(`BAD ${url}: ${response.status ?? response.message}`);
  else console.log(url);
}
