/** The READMEs and the docs site show each example app's component verbatim: the code the tests drive. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const read = (path: string): string =>
  readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");

const SHOWN = {
  "packages/react/README.md": ["examples/react/src/App.tsx"],
  "apps/docs/src/content/docs/getting-started.md": ["examples/embed/index.html"],
  "apps/docs/src/content/docs/guides/frameworks.md": [
    "examples/vue/src/App.vue",
    "examples/svelte/src/App.svelte",
    "examples/angular/src/app/app.ts",
  ],
};

for (const [readme, files] of Object.entries(SHOWN))
  for (const file of files)
    test(`${readme} shows ${file}`, () => {
      assert.ok(read(readme).includes(read(file).trim()), `${readme} does not show ${file}`);
    });
