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
