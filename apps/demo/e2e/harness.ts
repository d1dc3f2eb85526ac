/** Starts the demo server and a headless Debian Chromium for one end-to-end test file. */
import { mkdirSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";
import { chromiumArgs, chromiumPath } from "../../../scripts/chromium.mjs";
import { type DemoServer, distDir, startDemoServer } from "../server/demo-server.ts";

/** Where the end-to-end tests save screenshots of the main states. */
export const shots = new URL("../../../docs/demo/", import.meta.url);

/** A running demo and a browser page on it. */
export interface Harness {
  readonly demo: DemoServer;
  readonly browser: Browser;
  readonly page: Page;
  /** Opens the demo the way a user does: the printed URL, token in the fragment. */
  open(): Promise<void>;
  screenshot(name: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts everything; the page is built by the package's test script before this runs. */
export async function startHarness(): Promise<Harness> {
  const demo = await startDemoServer({ port: 0, staticRoot: distDir });
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [...chromiumArgs],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  mkdirSync(shots, { recursive: true });
  return {
    demo,
    browser,
    page,
    async open() {
      await page.goto(demo.openUrl);
      await page.getByText("Connected", { exact: true }).first().waitFor();
    },
    async screenshot(name) {
      await page.screenshot({ path: new URL(`${name}.png`, shots).pathname });
    },
    async close() {
      await browser.close();
      await demo.close();
    },
  };
}
