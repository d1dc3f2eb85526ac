/** The site for agents: llms.txt names every page, and each page has its Markdown copy. */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { manifestElements } from "../scripts/element-pages.mjs";
import { dist } from "./static-server.ts";

test("llms.txt links a Markdown copy of every page, elements included", () => {
  const llms = readFileSync(join(dist, "llms.txt"), "utf8");
  assert.match(llms, /^# pi-kit\n\n> /);
  const linked = [...llms.matchAll(/\]\(https?:\/\/[^/]+\/([^)]+\.md)\)/g)].map(
    (m) => m[1] as string,
  );
  for (const { tagName } of manifestElements()) {
    assert.ok(linked.includes(`elements/${tagName}.md`), `llms.txt does not list ${tagName}`);
  }
  for (const page of [
    "getting-started.md",
    "live-examples.md",
    "guides/theming.md",
    "api/client.md",
  ]) {
    assert.ok(linked.includes(page), `llms.txt does not list ${page}`);
  }
  const missing = linked.filter((path) => !existsSync(join(dist, path)));
  assert.deepEqual(missing, []);
});

test("an element's Markdown copy holds its generated tables", () => {
  const md = readFileSync(join(dist, "elements", "pi-dialog.md"), "utf8");
  assert.match(md, /^# <pi-dialog>/);
  assert.match(md, /\| `pi-dialog-answer` \| `PiDialogAnswerEvent` \|/);
  assert.match(md, /## CSS custom properties/);
});
