/**
 * The demo as it looks: at 1280x800 and 390x844, light and dark, the page never scrolls sideways,
 * Send is on screen and clickable, and axe finds nothing below WCAG 2.1 AA (text contrast
 * included). Also the whole page follows the theme toggle, the chat list is a drawer on a phone,
 * and the empty state's suggestions send. Screenshots of each go to `docs/demo/`.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Page } from "playwright-core";
import {
  axeFindings,
  connected,
  type Harness,
  sidebarSettled,
  startHarness,
  VIEWPORTS,
} from "./harness.ts";

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const SESSION = "layout";

/** Sends `text` once pi is idle (a message sent while a run ends could wait as a follow-up). */
async function send(page: Page, text: string): Promise<void> {
  await page.locator("pi-chat").getByRole("button", { name: "Send", exact: true }).waitFor();
  const composer = page.locator("pi-chat textarea");
  await composer.fill(text);
  await composer.press("Enter");
}

/** Relative luminance of a CSS `rgb()` colour (0 black, 1 white). */
function luminance(color: string): number {
  const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

async function background(page: Page, selector: string): Promise<number> {
  return luminance(
    await page
      .locator(selector)
      .first()
      .evaluate((el) => getComputedStyle(el).backgroundColor),
  );
}

test("a conversation to look at: markdown, a tool call and its answer", async () => {
  const page = await h.newPage({ session: SESSION });
  await connected(page);
  await send(
    page,
    "[[text ## Plan\\n\\nI will **list the files**, then read `package.json`:\\n\\n1. run `ls`\\n2. summarise]]",
  );
  await page.locator("pi-chat").getByText("summarise").waitFor();
  await send(page, "[[bash ls -la]]");
  await page.getByRole("option", { name: "Allow once" }).click();
  await page
    .locator("pi-chat")
    .getByText(/^Tool bash returned/)
    .first()
    .waitFor();
  await page.close();
});

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  for (const colorScheme of ["light", "dark"] as const) {
    test(`${viewport.width}x${viewport.height} ${colorScheme}: no sideways scroll, Send reachable, axe clean`, async () => {
      const page = await h.newPage({ viewport, colorScheme, session: SESSION });
      await connected(page);
      await page
        .locator("pi-chat")
        .getByText(/^Tool bash returned/)
        .first()
        .waitFor();
      await page.locator("pi-chat textarea").fill("Is this readable?");

      const width = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        body: document.body.scrollWidth,
        window: innerWidth,
      }));
      assert.ok(
        width.page <= width.window && width.body <= width.window,
        `the page is ${width.page}px wide in a ${width.window}px window`,
      );

      const sendButton = page.locator("pi-chat").getByRole("button", { name: "Send" });
      const box = await sendButton.boundingBox();
      assert.ok(box, "Send is rendered");
      assert.ok(
        box.x >= 0 &&
          box.y >= 0 &&
          box.x + box.width <= viewport.width &&
          box.y + box.height <= viewport.height,
        `Send is on screen (${JSON.stringify(box)})`,
      );
      // Visible, enabled, not covered by anything: Playwright's own actionability checks.
      await sendButton.click({ trial: true });

      const findings = await axeFindings(page);
      assert.deepEqual(findings, [], `axe: ${JSON.stringify(findings, null, 2)}`);
      await h.screenshot(`${size}-${colorScheme}`, page);
      await page.close();
    });
  }
}

test("the theme toggle darkens the whole page, not only the pi elements", async () => {
  const page = await h.newPage({ session: SESSION, colorScheme: "light" });
  await connected(page);
  assert.ok((await background(page, ".sidebar")) > 0.8, "the sidebar starts light");
  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  // The shell (behind the header and the chat), the sidebar, and the chat itself.
  for (const part of ["demo-app", ".sidebar", "pi-chat"]) {
    const lum = await background(page, part);
    assert.ok(lum < 0.2, `${part} is dark (luminance ${lum.toFixed(2)})`);
  }
  assert.equal(await page.evaluate(() => document.documentElement.style.colorScheme), "dark");
  // The choice is remembered.
  await page.reload();
  await connected(page);
  assert.ok((await background(page, ".sidebar")) < 0.2, "the sidebar stays dark after a reload");
  await page.close();
});

test("on a phone the chat list is a drawer: opens from the menu, closes with Escape", async () => {
  const page = await h.newPage({ session: SESSION, viewport: VIEWPORTS.phone });
  await connected(page);
  const sidebar = page.getByRole("complementary", { name: "Chats" });
  assert.equal(await sidebar.isVisible(), false, "the drawer starts closed");
  const menu = page.getByRole("button", { name: "Open the chat list" });
  await menu.click();
  await sidebar.waitFor();
  await page.waitForFunction(() => {
    const active = document.querySelector("demo-app")?.shadowRoot?.activeElement;
    return active?.localName === "pi-session-list";
  });
  await sidebarSettled(page);
  await h.screenshot("phone-drawer", page);
  await page.keyboard.press("Escape");
  await sidebar.waitFor({ state: "hidden" });
  await page.waitForFunction(() => {
    const active = document.querySelector("demo-app")?.shadowRoot?.activeElement;
    return active?.classList.contains("menu-button") ?? false;
  });
  await page.close();
});

test("a new chat shows suggestions, and one click sends one", async () => {
  const page = await h.newPage({ session: SESSION });
  await connected(page);
  await page.getByRole("button", { name: "New chat" }).click();
  await page.waitForURL(/\?session=s-/);
  await connected(page);
  const suggestion = page.getByRole("button", { name: /Ask me to confirm/ });
  await suggestion.waitFor();
  await h.screenshot("empty-state", page);
  await suggestion.click();
  const dialog = page.getByRole("alertdialog");
  await dialog.getByRole("button", { name: "Yes" }).click();
  await page.locator("pi-chat").getByText("confirm: yes").first().waitFor();
  await page.close();
});
