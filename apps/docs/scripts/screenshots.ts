/**
 * Screenshots of the built site for docs/site/: an element page, an edited example and the
 * theming playground, at 1280 and 390 px, light and dark. Run after a build:
 * `node --import tsx scripts/screenshots.ts` (from apps/docs).
 */
import { mkdirSync } from "node:fs";
import { chromium, type Page } from "playwright-core";
import { chromiumArgs, chromiumPath } from "../../../scripts/chromium.mjs";
import { serveStatic } from "../test/static-server.ts";

const out = new URL("../../../docs/site/", import.meta.url).pathname;
mkdirSync(out, { recursive: true });
const server = await serveStatic();
const browser = await chromium.launch({ executablePath: chromiumPath(), args: [...chromiumArgs] });

async function ready(page: Page, selector: string): Promise<void> {
  const figure = page.locator(selector).first();
  await figure.scrollIntoViewIfNeeded();
  await page.waitForFunction(
    (el) => el?.getAttribute("data-state") === "ready",
    await figure.elementHandle(),
  );
}

for (const scheme of ["light", "dark"] as const) {
  for (const [size, viewport] of [
    ["desktop", { width: 1280, height: 900 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    const context = await browser.newContext({ colorScheme: scheme, viewport });
    await context.addInitScript((theme) => localStorage.setItem("starlight-theme", theme), scheme);
    const page = await context.newPage();
    await page.goto(`${server.url}/elements/pi-dialog/`);
    await ready(page, "figure[data-example]");
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${out}element-page-${size}-${scheme}.png` });
    await page.goto(`${server.url}/guides/theming/`);
    await ready(page, 'figure[data-example="theming"]');
    const accent = page.locator(".token-controls input").nth(6);
    await accent.evaluate((input: HTMLInputElement) => {
      input.value = "#0b7a75";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await page
      .locator('figure[data-example="theming"]')
      .screenshot({ path: `${out}theming-playground-${size}-${scheme}.png` });
    if (size === "desktop") {
      await page.goto(`${server.url}/live-examples/`);
      const figure = page.locator('figure[data-example="tool-diff"]');
      await ready(page, 'figure[data-example="tool-diff"]');
      await figure.locator("button[data-edit]").click();
      const code = figure.getByLabel("Code (JavaScript)");
      await code.fill(
        (await code.inputValue()).replace(
          "stage.append(chat);",
          'chat.style.setProperty("--pi-color-accent", "#b42318");\nchat.strings = { placeholder: "Edited in the docs" };\nstage.append(chat);',
        ),
      );
      await figure.getByRole("button", { name: "Run" }).click();
      await page.waitForTimeout(500); // a picture, not a test: let the replay draw
      await figure.screenshot({ path: `${out}edited-example-${scheme}.png` });
    }
    await context.close();
  }
}
await browser.close();
await server.close();
console.log(`screenshots in ${out}`);
