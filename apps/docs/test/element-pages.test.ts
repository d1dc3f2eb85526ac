/**
 * Coverage: every tag, attribute, property, method, event, slot, CSS part and CSS custom property
 * of the elements' custom-elements.json is on its element's built page (as code, in its table).
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { manifestElements } from "../scripts/element-pages.mjs";
import { dist } from "./static-server.ts";

const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

interface Named {
  readonly name: string;
  readonly kind?: string;
  readonly privacy?: string;
  readonly static?: boolean;
}

const isPublic = (m: Named): boolean =>
  (m.kind === "field" || m.kind === "method") &&
  !m.static &&
  (m.privacy ?? "public") === "public" &&
  !m.name.startsWith("#");

test("every element of the manifest has a page naming all of its API", () => {
  const elements = manifestElements() as unknown as Array<{
    tagName: string;
    members?: Named[];
    attributes?: Named[];
    events?: Named[];
    slots?: Named[];
    cssParts?: Named[];
    cssProperties?: Named[];
  }>;
  assert.ok(elements.length >= 16, `only ${elements.length} elements in the manifest`);
  const missing: string[] = [];
  for (const element of elements) {
    const file = join(dist, "elements", element.tagName, "index.html");
    if (!existsSync(file)) {
      missing.push(`${element.tagName}: no page`);
      continue;
    }
    const page = readFileSync(file, "utf8");
    const named = {
      member: (element.members ?? []).filter(isPublic),
      attribute: element.attributes ?? [],
      event: element.events ?? [],
      slot: (element.slots ?? []).map((s) => ({ name: s.name || "(default)" })),
      "CSS part": element.cssParts ?? [],
      "CSS custom property": element.cssProperties ?? [],
    };
    for (const [kind, list] of Object.entries(named)) {
      for (const { name } of list) {
        const asCode = new RegExp(
          `<code[^>]*>${escapeHtml(name).replace(/[$()*+.?[\]\\^{|}]/g, "\\$&")}[(<]`,
        );
        if (!asCode.test(page)) missing.push(`${element.tagName}: ${kind} ${name}`);
      }
    }
  }
  assert.deepEqual(missing, []);
});
