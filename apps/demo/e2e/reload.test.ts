/**
 * A reload during a run, end to end (real pi 1.x behind the bridge, Debian's Chromium): the
 * answer being streamed is back as soon as the page is connected again, not when the run ends
 * (pi's `get_messages` lacks it; the bridge's run snapshot brings it), it goes on streaming (on a
 * second viewer that joins then too), and once the run is over the transcript is the one a freshly
 * opened page shows.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Page } from "playwright-core";
import { chat, connected, type Harness, startHarness, VIEWPORTS } from "./harness.ts";

let h: Harness;
let page: Page;
before(async () => {
  h = await startHarness();
  page = await h.newPage({ session: "reload" });
  await connected(page);
});
after(async () => {
  await h?.close();
});

/**
 * The text of every message a page shows, in order, through the shadow roots it renders in;
 * without the actions and times (a watching page offers fewer actions).
 */
function transcript(on: Page): Promise<string[]> {
  return chat(on)
    .locator("pi-message")
    .evaluateAll((messages) =>
      // One loop, no named inner function: the test's compiler would wrap one in a helper the
      // page does not have.
      messages.map((message) => {
        const parts: string[] = [];
        const stack: Node[] = [message];
        while (stack.length > 0) {
          const node = stack.pop() as Node;
          if (node instanceof Text) parts.push(node.data);
          if (node instanceof HTMLStyleElement) continue;
          if (node instanceof Element && /\b(actions|time)\b/.test(node.getAttribute("part") ?? ""))
            continue;
          const root = node instanceof Element ? node.shadowRoot : null;
          const children = [...(root?.childNodes ?? []), ...node.childNodes];
          for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Node);
        }
        return parts.join(" ").replace(/\s+/g, " ").trim();
      }),
    );
}

/** The highest `tick N` a page shows. */
async function lastTick(on: Page): Promise<number> {
  const text = (await transcript(on)).join(" ");
  return Math.max(0, ...[...text.matchAll(/tick (\d+)/g)].map((match) => Number(match[1])));
}

test("a reload mid-answer shows the answer so far once connected, and it goes on streaming", async () => {
  const composer = page.locator("pi-chat textarea");
  // 300 ticks of 200 ms (a minute): far longer than the test runs; Stop ends it below.
  await composer.fill("[[slow 200ms x 300]]");
  await composer.press("Enter");
  await chat(page)
    .getByText(/tick 3 /)
    .first()
    .waitFor();

  await page.reload();
  await connected(page);
  // The partial answer is painted while the run is still going (the Stop button is still there),
  // not all at once when it ends.
  await chat(page)
    .getByText(/tick 1 tick 2 tick 3 /)
    .first()
    .waitFor();
  // Before the end of the run: the whole answer has 300 ticks.
  assert.ok((await lastTick(page)) < 300, "the answer is not complete yet");
  await h.screenshot("reload-mid-answer", page);

  // Live: later ticks arrive without another reload.
  const shown = await lastTick(page);
  await chat(page)
    .getByText(new RegExp(`tick ${shown + 2} `))
    .first()
    .waitFor();

  // A second viewer (a phone, dark) joining now sees the answer so far too, and it grows there.
  const phone = await h.newPage({
    session: "reload",
    viewport: VIEWPORTS.phone,
    colorScheme: "dark",
  });
  await connected(phone);
  const seen = await lastTick(page);
  await chat(phone)
    .getByText(new RegExp(`tick 1 tick 2 tick 3 (tick \\d+ )*tick ${seen} `))
    .first()
    .waitFor();
  assert.ok((await lastTick(phone)) < 300, "the answer is not complete yet");
  await h.screenshot("reload-second-viewer-phone", phone);
  await chat(phone)
    .getByText(new RegExp(`tick ${(await lastTick(phone)) + 1} `))
    .first()
    .waitFor();

  // The reloaded page has control back (its composer is enabled again), even when it attached
  // before the bridge saw the old page's socket close.
  await chat(page).locator("[part=send-button]:not([disabled])").waitFor();
  await page.getByRole("button", { name: "Stop" }).click();
  await chat(page)
    .getByText(/aborted/i)
    .first()
    .waitFor();
  await chat(page).getByRole("button", { name: "Send", exact: true }).waitFor();
});

test("after the run, the reloaded page's transcript equals a freshly opened page's", async () => {
  const fresh = await h.newPage({ session: "reload" });
  await connected(fresh);
  await chat(fresh)
    .getByText(/aborted/i)
    .first()
    .waitFor();
  const reloaded = await transcript(page);
  assert.ok(reloaded.some((text) => /tick 1 tick 2 tick 3 /.test(text)));
  assert.deepEqual(reloaded, await transcript(fresh));
});
