/**
 * The declarative embed: a page with one script tag (the one-file bundle, copied alone into an
 * empty directory) and one `<pi-chat src token-from="fragment">` connects by itself, answers, and
 * highlights code with the grammars the bundle carries: nothing else is fetched, nothing 404s.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { type Site, send, startSite } from "./harness.ts";

let site: Site;
before(async () => {
  site = await startSite();
});
after(async () => {
  await site?.close();
});

test("one script tag and one element: connected, answered, code highlighted, no 404", async () => {
  const { page, failures, requests } = await site.open("embed");
  try {
    const chat = page.locator("pi-chat");
    await page.getByText("Connected", { exact: true }).first().waitFor();
    await send(page, "[[text Some code:\\n```js\\nconst answer = 42;\\n```]]");
    await chat.getByText("const answer = 42;").waitFor();
    await chat.locator("[class^='shj-syn-']").first().waitFor();
    assert.deepEqual(failures, []);
    const paths = requests.map((url) => new URL(url).pathname);
    assert.deepEqual([...new Set(paths)].sort(), ["/embed/", "/embed/pi-kit.bundle.js"]);
  } finally {
    await page.close();
  }
});
