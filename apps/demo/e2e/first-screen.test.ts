/**
 * The first screen as a new user meets it, measured: "Scripted" is said once, the thinking picker
 * is labelled, the empty history says so in words; on a phone the status line is one line and
 * every control is at least 24 px tall (WCAG 2.2 target size); the session panel opens at its top.
 * Screenshots at 1280 and 390 px, light and dark, go to `docs/demo/first-screen-*.png`.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { PiChat } from "@pi-kit/elements";
import type { Page } from "playwright-core";
import { chat, connected, type Harness, say, startHarness, VIEWPORTS } from "./harness.ts";

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

// (The functions run in the page are loops, not named inner functions: tsx would wrap those in
// a helper the page does not have.)

/** The text on screen, through shadow roots: rendered text nodes, and each select's choice. */
function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    let text = "";
    const stack: Node[] = [document.body];
    while (stack.length > 0) {
      const node = stack.pop() as Node;
      if (node instanceof HTMLSelectElement) {
        if (node.checkVisibility()) text += ` ${node.selectedOptions[0]?.text ?? ""} `;
        continue;
      }
      if (node.nodeType === Node.TEXT_NODE && node.parentElement?.checkVisibility())
        text += ` ${node.textContent} `;
      if (node instanceof Element && node.shadowRoot) stack.push(node.shadowRoot);
      stack.push(...node.childNodes);
    }
    return text;
  });
}

/** Every visible control, through shadow roots, with its box. */
function controls(page: Page): Promise<{ what: string; width: number; height: number }[]> {
  return page.evaluate(() => {
    const found: { what: string; width: number; height: number }[] = [];
    const selector =
      "button, select, input:not([type=hidden]), textarea, a[href], summary, [role=button], [role=option], [role=treeitem], [role=switch]";
    const roots: ParentNode[] = [document];
    while (roots.length > 0) {
      const root = roots.pop() as ParentNode;
      for (const el of root.querySelectorAll<HTMLElement>(selector)) {
        if (!el.checkVisibility({ visibilityProperty: true }) || el.closest("[inert]")) continue;
        // A checkbox counts with its label, which a click on also toggles it.
        const target = el.matches("input[type=checkbox]") ? (el.closest("label") ?? el) : el;
        const box = target.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        const name = (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40);
        const kind = `${el.localName}${el.getAttribute("type") ? `[${el.getAttribute("type")}]` : ""}`;
        const where = (el.getRootNode() as ShadowRoot).host?.localName ?? "page";
        found.push({ what: `${kind} "${name}" in ${where}`, width: box.width, height: box.height });
      }
      for (const el of root.querySelectorAll("*")) if (el.shadowRoot) roots.push(el.shadowRoot);
    }
    return found;
  });
}

test("the first screen says 'Scripted' once, labels the thinking picker, and says the history is empty", async () => {
  const page = await h.newPage({ viewport: VIEWPORTS.desktop });
  await connected(page);
  await page.locator("pi-model-picker option[value*='/']").first().waitFor({ state: "attached" });
  const text = await visibleText(page);
  assert.equal(text.match(/Scripted/g)?.length, 1, text);
  await page.locator("pi-thinking-picker").getByText("Thinking", { exact: true }).waitFor();
  assert.equal(
    await page.locator("pi-thinking-picker").getByRole("combobox", { name: "Thinking" }).count(),
    1,
  );
  await page.locator("pi-session-list").getByText("No earlier conversations").waitFor();
  await page.close();
});

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  for (const colorScheme of ["light", "dark"] as const) {
    test(`${viewport.width} px ${colorScheme}: the status line is one line, every control is at least 24 px tall, the panel opens at its top`, async () => {
      const page = await h.newPage({ viewport, colorScheme, session: "first-screen" });
      await connected(page);
      // Usage figures make the status line its longest.
      await say(page, `a question at ${size} in ${colorScheme}`);
      const status = chat(page).locator(".status-bar");
      // (On a phone the tokens give way: there only attached.)
      await status.getByText(/ in · /).waitFor({ state: "attached" });
      await status.getByText(/^Context/).waitFor();
      // One line: every item overlaps every other vertically (a wrapped one starts below).
      const line = await status.evaluate((bar) => {
        const boxes = [...bar.children]
          .filter((child) => child.checkVisibility())
          .map((child) => child.getBoundingClientRect())
          .filter((box) => box.height > 0);
        return {
          lowestTop: Math.max(...boxes.map((b) => b.top)),
          highestBottom: Math.min(...boxes.map((b) => b.bottom)),
          height: bar.getBoundingClientRect().height,
        };
      });
      assert.ok(
        line.lowestTop < line.highestBottom,
        `the status line wraps: ${JSON.stringify(line)}`,
      );

      const small = (await controls(page)).filter((c) => c.height < 24);
      assert.deepEqual(small, [], "controls under 24 px tall");
      await h.screenshot(`first-screen-${size}-${colorScheme}`, page);

      await page.getByRole("button", { name: "Show session details" }).click();
      const panel = page.locator("demo-app .panel");
      await page.locator("pi-session-tree").getByRole("treeitem").first().waitFor();
      await page.locator("pi-session-tree").getByRole("treeitem").last().waitFor();
      assert.equal(await panel.evaluate((p) => p.scrollTop), 0, "the panel opened scrolled down");
      const title = await page.locator("#panel-title").boundingBox();
      assert.ok(title && title.y >= 0 && title.y < viewport.height, "the panel's title is in view");
      const smallInPanel = (await controls(page)).filter((c) => c.height < 24);
      assert.deepEqual(smallInPanel, [], "controls under 24 px tall with the panel open");
      await h.screenshot(`panel-${size}-${colorScheme}`, page);
      await page.close();
    });
  }
}

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  for (const colorScheme of ["light", "dark"] as const) {
    test(`${viewport.width} px ${colorScheme}: a prompt lands near the top, and a stream moves nothing while the reader has scrolled up`, async () => {
      const page = await h.newPage({
        viewport,
        colorScheme,
        session: `reading-${size}-${colorScheme}`,
      });
      await connected(page);
      for (let i = 0; i < 4; i++) await say(page, `earlier question ${i} `.repeat(12).trim());
      const composer = page.locator("pi-chat textarea");
      await composer.fill("Write a long story slowly");
      await composer.press("Enter");
      const turn = chat(page).locator("pi-message[role-name=user]").last();
      await turn.getByText("Write a long story slowly").waitFor();
      const log = chat(page).locator("[role=log]");
      // It lands in the top fifth of the transcript, the answer streaming below it.
      await chat(page).locator("pi-message[streaming]").first().waitFor();
      const where = async (): Promise<number> => {
        const [a, b] = [await turn.boundingBox(), await log.boundingBox()];
        assert.ok(a && b);
        return (a.y - b.y) / b.height;
      };
      assert.ok(
        (await where()) < 0.2,
        `the new turn is at ${(await where()).toFixed(2)} of the view`,
      );
      await h.screenshot(`reading-turn-${size}-${colorScheme}`, page);
      // The reader scrolls up to an earlier answer; the stream goes on below without moving it.
      await log.hover();
      const top = await log.evaluate((el) => el.scrollTop);
      await page.mouse.wheel(0, -300);
      const scroller = await log.elementHandle();
      await page.waitForFunction(
        ([el, from]) => (el as HTMLElement).scrollTop <= Math.max(0, from - 299),
        [scroller, top] as const,
      );
      const anchor = turn;
      const before = (await anchor.boundingBox())?.y;
      const element = await chat(page).elementHandle();
      const streamed = (): Promise<number> =>
        chat(page).evaluate(
          (c) => JSON.stringify((c as PiChat).snapshot?.streamingMessage ?? "").length,
        );
      await page.waitForFunction(
        ([c, n]) => JSON.stringify((c as PiChat).snapshot?.streamingMessage ?? "").length > n,
        [element, (await streamed()) + 80] as const,
      );
      assert.equal((await anchor.boundingBox())?.y, before, "what the reader looks at moved");
      await h.screenshot(`reading-scrolled-up-${size}-${colorScheme}`, page);
      await page.close();
    });
  }
}
