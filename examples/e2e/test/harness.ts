/**
 * One demo server (the bridge, real pi behind a scripted model, the demo's extension) serving the
 * built example apps from a fresh directory, and one headless Debian Chromium to drive them.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { type DemoServer, startDemoServer } from "../../../apps/demo/server/demo-server.ts";
import { chromiumArgs, chromiumPath } from "../../../scripts/chromium.mjs";

const examples = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** Each framework app: its folder under examples/, where its build puts the page, its label. */
export const APPS = [
  { name: "react", dist: "react/dist", label: "React" },
  { name: "vue", dist: "vue/dist", label: "Vue" },
  { name: "svelte", dist: "svelte/dist", label: "Svelte" },
  { name: "angular", dist: "angular/dist/browser", label: "Angular" },
] as const;

/** The served site and the browser. */
export interface Site {
  readonly demo: DemoServer;
  readonly browser: Browser;
  /** Opens `/<path>/` with the token in the fragment; records every failed request. */
  open(path: string): Promise<{ page: Page; failures: string[]; requests: string[] }>;
  close(): Promise<void>;
}

/**
 * Lays out the site in an empty directory: each app's build under its name, and under `embed/`
 * only the one-file bundle, copied, beside the page that loads it.
 */
export async function startSite(): Promise<Site> {
  const root = mkdtempSync(join(tmpdir(), "pi-kit-examples-"));
  for (const app of APPS) cpSync(examples(app.dist), join(root, app.name), { recursive: true });
  mkdirSync(join(root, "embed"));
  cpSync(examples("embed/index.html"), join(root, "embed/index.html"));
  cpSync(
    fileURLToPath(new URL("../../../packages/elements/dist/pi-kit.bundle.js", import.meta.url)),
    join(root, "embed/pi-kit.bundle.js"),
  );
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
  await composer.press("Enter");
  await composer.press("Enter");
  const dialog = page.getByRole("alertdialog");
  await dialog.waitFor();
  await dialog.getByRole("button", { name: "Yes" }).click();
  await page.getByText("confirm: yes").first().waitFor();
}
