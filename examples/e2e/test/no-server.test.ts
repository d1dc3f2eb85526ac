/**
 * Each example's page served by a plain static server, with no bridge behind it (opened from its
 * `dist/`, say): the page names the command that serves it with one, instead of waiting forever.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { serve } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { type Browser, chromium } from "playwright-core";
import { chromiumArgs, chromiumPath } from "../../../scripts/chromium.mjs";
import { EXAMPLES, layOutSite } from "../../site.ts";

let browser: Browser;
let root: string;
let url: string;
let server: ReturnType<typeof serve>;
before(async () => {
  root = layOutSite();
  const app = new Hono().use("/*", serveStatic({ root }));
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: chromiumPath(), args: [...chromiumArgs] });
});
after(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

for (const name of EXAMPLES)
  test(`${name}: with no bridge, the page says which command serves it`, async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    try {
      await page.goto(`${url}/${name}/`);
      await page
        .locator("pi-chat")
        .getByText(`npm start -w @pi-kit/example-${name}`)
        .first()
        .waitFor();
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
