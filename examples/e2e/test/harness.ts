/**
 * One demo server (the bridge, real pi behind a scripted model, the demo's extension) serving the
 * built example apps from a fresh directory, and one headless Debian Chromium to drive them.
 */
import { rmSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";
import { dialogShown, recordTraffic } from "../../../apps/demo/e2e/page-traffic.ts";
import { type DemoServer, startDemoServer } from "../../../apps/demo/server/demo-server.ts";
import { chromiumArgs, chromiumPath } from "../../../scripts/chromium.mjs";
import { layOutSite } from "../../site.ts";

export { APPS } from "../../site.ts";

/** The served site and the browser. */
export interface Site {
  readonly demo: DemoServer;
  readonly browser: Browser;
  /** Opens `/<path>/` with the token in the fragment; records every failed request. */
  open(path: string): Promise<{ page: Page; failures: string[]; requests: string[] }>;
  close(): Promise<void>;
}

/** Serves every example's page (see `layOutSite`) with the demo's server. */
export async function startSite(): Promise<Site> {
  const root = layOutSite();
  const demo = await startDemoServer({ port: 0, staticRoot: root });
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [...chromiumArgs],
  });
  return {
    demo,
    browser,
    async open(path) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      recordTraffic(page);
      const failures: string[] = [];
      const requests: string[] = [];
      page.on("pageerror", (error) => failures.push(`page error: ${error.message}`));
      page.on("requestfailed", (r) => failures.push(`${r.url()}: ${r.failure()?.errorText}`));
      page.on("response", (r) => {
        requests.push(r.url());
        if (r.status() >= 400) failures.push(`${r.url()}: HTTP ${r.status()}`);
      });
      await page.goto(`${demo.url}/${path}/#token=${demo.token}`);
      return { page, failures, requests };
    },
    async close() {
      await browser.close();
      await demo.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Sends a message from the chat's composer, as a user does. */
export async function send(page: Page, text: string): Promise<void> {
  const composer = page.locator("pi-chat textarea");
  await composer.fill(text);
  await composer.press("Enter");
}

/**
 * Runs the demo extension's `/demo-confirm` once pi is idle, and answers Yes in the chat's dialog.
 * While a run goes on the chat sends it as a follow-up, which pi refuses for an extension command;
 * an answer's text can show before its run has ended.
 */
export async function answerDialog(page: Page): Promise<void> {
  await page.locator("pi-chat").getByRole("button", { name: "Send", exact: true }).waitFor();
  const composer = page.locator("pi-chat textarea");
  await composer.fill("/demo-confirm");
  await page
    .getByRole("option", { name: /^\/?demo-confirm/ })
    .first()
    .waitFor();
  // Typed out in full, the command goes with one Enter (a second would be typed at its dialog).
  await composer.press("Enter");
  const dialog = await dialogShown(page);
  await dialog.getByRole("button", { name: "Yes" }).click();
  await page.getByText("confirm: yes").first().waitFor();
}
