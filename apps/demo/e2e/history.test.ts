/**
 * The history of conversations in the demo, end to end (real pi 1.x behind the bridge, Debian's
 * Chromium): a conversation left for longer than the grace period comes back intact, a past one
 * opens from the sidebar, rename and delete work from it, and the fork picker and the session
 * tree each move the transcript to the new branch after their confirmation. The bridge runs with
 * a one-second grace period, and the tests wait on its log, never on a clock.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { BridgeLogEvent } from "@pi-kit/bridge";
import type { Page } from "playwright-core";
import {
  addressOf,
  axeFindings,
  chat,
  connected,
  type Harness,
  openPanel,
  say,
  sessionList,
  sidebarSettled,
  startHarness,
  VIEWPORTS,
} from "./harness.ts";

const GRACE_MS = 1000;

/** The bridge's log entries as they come, for tests to wait on. */
const log = new EventTarget();
function logged(match: (entry: BridgeLogEvent) => boolean): Promise<BridgeLogEvent> {
  return new Promise((resolve) => {
    const listener = (event: Event) => {
      const entry = (event as CustomEvent<BridgeLogEvent>).detail;
      if (!match(entry)) return;
      log.removeEventListener("entry", listener);
      resolve(entry);
    };
    log.addEventListener("entry", listener);
  });
}

let h: Harness;
before(async () => {
  h = await startHarness({
    limits: { graceMs: GRACE_MS },
    logger: (entry) => log.dispatchEvent(new CustomEvent("entry", { detail: entry })),
  });
});
after(async () => {
  await h?.close();
});

/** A conversation's row in the sidebar, by its title. */
const row = (page: Page, title: string) =>
  sessionList(page).getByRole("button", { name: new RegExp(`^${title}`) });

/** The pid of session `name`'s pi, while it runs. */
function pidOf(name: string): number | null | undefined {
  return h.demo.bridge.sessions.list().find((s) => s.name === name)?.pid;
}

test("a conversation left for longer than the grace period comes back intact", async () => {
  const page = await h.newPage({ session: "away" });
  await connected(page);
  await say(page, "Remember the lighthouse");
  await say(page, "And the second message");
  const before = pidOf("away");
  assert.ok(before, "the session has a pi");

  // Leave: the bridge keeps pi for the grace period, then stops it.
  const stopped = logged((e) => e.event === "session_closed" && e.session === "away");
  await page.goto("about:blank");
  assert.deepEqual(await stopped, { event: "session_closed", session: "away", reason: "grace" });

  await page.goto(addressOf(h.demo, { session: "away" }));
  await connected(page);
  await chat(page).getByText("Echo: Remember the lighthouse", { exact: true }).waitFor();
  await chat(page).getByText("Echo: And the second message", { exact: true }).waitFor();
  const after = pidOf("away");
  assert.ok(after != null && after !== before, "a new pi resumed the session from its file");
  // The title above the chat and in the history is the first message.
  await page.getByRole("heading", { name: "Remember the lighthouse", level: 1 }).waitFor();
  await row(page, "Remember the lighthouse").waitFor();
  await page.close();
});

test("a past conversation opens from the history, and the address follows", async () => {
  const page = await h.newPage({ session: "alpha" });
  await connected(page);
  await say(page, "Plan the alpha release");

  await sessionList(page).getByRole("button", { name: "New chat" }).click();
  await page.waitForURL(/\?session=s-[0-9a-f]+/);
  await connected(page);
  await page.getByRole("button", { name: /Ask me to confirm/ }).waitFor();
  await say(page, "Draft the beta notes");

  await row(page, "Plan the alpha release").click();
  await page.waitForURL(/\?session=alpha/);
  await chat(page).getByText("Echo: Plan the alpha release", { exact: true }).waitFor();
  await chat(page).getByText("Echo: Draft the beta notes").waitFor({ state: "detached" });
  assert.equal(
    await row(page, "Plan the alpha release").getAttribute("aria-current"),
    "true",
    "the open conversation is marked in the list",
  );

  // Back returns to the conversation shown before.
  await page.goBack();
  await page.waitForURL(/\?session=s-/);
  await chat(page).getByText("Echo: Draft the beta notes", { exact: true }).waitFor();
  await page.close();
});

test("rename and delete from the history; deleting the open conversation opens another", async () => {
  const page = await h.newPage({ session: "doomed" });
  await connected(page);
  await say(page, "Short-lived thoughts");

  await sessionList(page).getByRole("button", { name: "Rename “Short-lived thoughts”" }).click();
  const field = sessionList(page).getByRole("textbox", {
    name: "New title for “Short-lived thoughts”",
  });
  await field.fill("Scratch pad");
  await field.press("Enter");
  await row(page, "Scratch pad").waitFor();
  await page.getByRole("heading", { name: "Scratch pad", level: 1 }).waitFor();

  await sessionList(page).getByRole("button", { name: "Delete “Scratch pad”" }).click();
  await sessionList(page).getByRole("button", { name: "Delete", exact: true }).click();
  await row(page, "Scratch pad").waitFor({ state: "detached" });
  await page.waitForURL((url) => url.searchParams.get("session") !== "doomed");
  await connected(page);
  assert.equal(await page.getByRole("alert").count(), 0, "no problem is reported");
  assert.equal(await h.demo.bridge.history.get("doomed"), undefined, "its files are gone");
  await page.close();
});

test("the fork picker asks, then the transcript shows only the new branch", async () => {
  const page = await h.newPage({ session: "forked" });
  await connected(page);
  await say(page, "First question");
  await say(page, "Second question");
  await openPanel(page);

  const picker = page.locator("pi-fork-picker");
  await picker.getByRole("option", { name: "Second question" }).click();
  await picker.getByText(/^Fork from “Second question”\?/).waitFor();
  await picker.getByRole("button", { name: "Fork", exact: true }).click();

  await chat(page).getByText("Echo: Second question").waitFor({ state: "detached" });
  await chat(page).getByText("Echo: First question", { exact: true }).waitFor();
  assert.equal(await page.locator("pi-chat textarea").inputValue(), "Second question");
  // The branch goes on from there.
  await say(page, "Another second question");
  assert.equal(await chat(page).getByText("Echo: Second question", { exact: true }).count(), 0);
  await page.close();
});

test("choosing an entry in the session tree branches there after its confirmation", async () => {
  const page = await h.newPage({ session: "tree" });
  await connected(page);
  await say(page, "Root question");
  await say(page, "Later question");
  await openPanel(page);

  const tree = page.locator("pi-session-tree");
  await tree
    .getByRole("treeitem")
    .filter({ hasText: /^\s*You\s*Later question/ })
    .click();
  await tree.getByText(/^Branch before “Later question”\?/).waitFor();
  await tree.getByRole("button", { name: "Branch here" }).click();

  await chat(page).getByText("Echo: Later question").waitFor({ state: "detached" });
  await chat(page).getByText("Echo: Root question", { exact: true }).waitFor();
  assert.equal(await page.locator("pi-chat textarea").inputValue(), "Later question");
  // The tree keeps both branches and marks the current one.
  await tree.getByRole("treeitem", { name: /current/ }).waitFor();
  await page.close();
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`the history sidebar at 1280 px, ${colorScheme}: axe clean`, async () => {
    const page = await h.newPage({ session: "away", colorScheme });
    await connected(page);
    await row(page, "Plan the alpha release").waitFor();
    const findings = await axeFindings(page);
    assert.deepEqual(findings, [], `axe: ${JSON.stringify(findings, null, 2)}`);
    await h.screenshot(`history-${colorScheme}`, page);
    await page.close();
  });
}

test("on a phone the history is in the drawer, and a row opens its conversation", async () => {
  const page = await h.newPage({ session: "away", viewport: VIEWPORTS.phone, colorScheme: "dark" });
  await connected(page);
  await page.getByRole("button", { name: "Open the chat list" }).click();
  const drawer = page.getByRole("complementary", { name: "Chats" });
  await drawer.waitFor();
  await row(page, "Plan the alpha release").waitFor();
  await sidebarSettled(page);
  await h.screenshot("history-phone", page);
  await row(page, "Plan the alpha release").click();
  await drawer.waitFor({ state: "hidden" });
  await chat(page).getByText("Echo: Plan the alpha release", { exact: true }).waitFor();
  await page.close();
});
