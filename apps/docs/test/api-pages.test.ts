/** Every name in the API reports of client, protocol, bridge and react is on its package's page. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { API_PACKAGES } from "../scripts/api-pages.mjs";
import { dist } from "./static-server.ts";

test("each package's API page names everything its API report exports", () => {
  const missing: string[] = [];
  for (const name of Object.keys(API_PACKAGES)) {
    const report = readFileSync(
      new URL(`../../../packages/${name}/api-report.md`, import.meta.url),
      "utf8",
    );
    const exported = [
      ...report.matchAll(
        /^export (?:declare )?(?:abstract )?(?:class|function|const|interface|type|enum) (\w+)/gm,
      ),
    ].map((m) => m[1] as string);
    assert.ok(exported.length > 0, `no exports read from ${name}'s report`);
    const page = readFileSync(join(dist, "api", name, "index.html"), "utf8");
    for (const symbol of new Set(exported)) {
      if (!page.includes(symbol)) missing.push(`@pi-kit/${name}: ${symbol}`);
    }
  }
  assert.deepEqual(missing, []);
});

test("the bridge protocol's page is docs/bridge-protocol.md, every section of it", () => {
  const doc = readFileSync(new URL("../../../docs/bridge-protocol.md", import.meta.url), "utf8");
  const headings = [...doc.matchAll(/^#{2,3} (.+)$/gm)].map((m) =>
    (m[1] as string).replace(/`/g, ""),
  );
  assert.ok(headings.length > 10, "no sections read from docs/bridge-protocol.md");
  const page = readFileSync(join(dist, "api", "bridge-protocol", "index.html"), "utf8")
    .replace(/<[^>]+>/g, "")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
  assert.deepEqual(
    headings.filter((heading) => !page.includes(heading)),
    [],
  );
});
