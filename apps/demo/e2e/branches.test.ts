/**
 * Every branch and fork stays reachable from the demo's page, end to end (real pi 1.x behind
 * the bridge, Debian's Chromium): a fork made with the fork picker or the session tree leaves the
 * conversation as it was under the same entry of the history, where one click brings it back;
 * branching at the first message leaves no stale title; and "New chat" adds nothing to the
 * history until its first message is sent, which lists it at once.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Page } from "playwright-core";
import {
  chat,
  connected,
  type Harness,
  openPanel,
  say,
  sessionList,
  startHarness,
} from "./harness.ts";

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A title ending in " (fork)" is a fork's: the list shows its title and a "fork" badge. */
const forkOf = (title: string) => /^(.*) \(fork\)$/.exec(title)?.[1];
/** The element of `title` in `button` (a row or a version), with a fork badge when it is a fork's. */
const titled = (page: Page, part: string, title: string, button: string) => {
  const text = forkOf(title) ?? title;
  const badge = page.locator("[part~=fork-badge]", { hasText: /^fork$/ });
  return sessionList(page)
    .locator(button, { has: page.locator(part, { hasText: new RegExp(`^${literal(text)}$`) }) })
    .filter(forkOf(title) === undefined ? { hasNot: badge } : { has: badge });
};
/** A conversation's row in the sidebar, by its exact title. */
const row = (page: Page, title: string) =>
  titled(page, "[part~=title]", title, "[part~=open-button]");
/** The entry of another file of the open conversation (a fork, or what was forked from). */
const fork = (page: Page, title: string) =>
  titled(page, "[part~=fork-title]", title, "[part~=fork-button]");

/** Forks with the fork picker before the user's message `text`, after its confirmation. */
async function forkAt(page: Page, text: string): Promise<void> {
  const picker = page.locator("pi-fork-picker");
  await picker.getByRole("option", { name: text }).click();
  await picker.getByRole("button", { name: "Fork", exact: true }).click();
  await chat(page).getByText(`Echo: ${text}`).waitFor({ state: "detached" });
}

/** Waits until the chat's composer holds `text`. */
async function composerHolds(page: Page, text: string): Promise<void> {
  const element = await page.locator("pi-chat").elementHandle();
  await page.waitForFunction(
    ({ chat, expected }) =>
      (chat as unknown as { composer?: { value: string } }).composer?.value === expected,
    { chat: element, expected: text },
  );
}

/** Waits until the page is connected to the conversation its address names. */
async function shown(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const app = document.querySelector("demo-app") as { connection?: { name: string } } | null;
    return app?.connection?.name === new URL(location.href).searchParams.get("session");
  });
  await connected(page);
}

const heading = (page: Page) => page.getByRole("heading", { level: 1 });

test("after a fork from the second of three questions, the conversation as it was opens from the history", async () => {
  const page = await h.newPage({ session: "rivers" });
  await connected(page);
  await say(page, "Name three rivers");
  await say(page, "Name three mountains");
  await say(page, "Name three lakes");
  await openPanel(page);
  await forkAt(page, "Name three mountains");
  assert.equal(await page.locator("pi-chat textarea").inputValue(), "Name three mountains");

  // The fork is named after its origin; the origin is listed under the same conversation.
  await row(page, "Name three rivers (fork)").waitFor();
  await heading(page).filter({ hasText: "Name three rivers (fork)" }).waitFor();
  await fork(page, "Name three rivers").click();
  await chat(page).getByText("Echo: Name three lakes", { exact: true }).waitFor();
  await chat(page).getByText("Echo: Name three mountains", { exact: true }).waitFor();
  await heading(page)
    .filter({ hasText: /^Name three rivers$/ })
    .waitFor();
  // The message put back in the composer belongs to the fork: the original has its own draft.
  await composerHolds(page, "");
  // The fork is now the other file, one click away; it holds only what came before the fork.
  await fork(page, "Name three rivers (fork)").click();
  await chat(page).getByText("Echo: Name three lakes").waitFor({ state: "detached" });
  await chat(page).getByText("Echo: Name three rivers", { exact: true }).waitFor();
  await composerHolds(page, "Name three mountains");
  await page.close();
});

test("a branch made in the session tree stays reachable, as its confirmation says", async () => {
  const page = await h.newPage({ session: "seasons" });
  await connected(page);
  await say(page, "Describe spring");
  await say(page, "Describe autumn");
  await openPanel(page);

  const tree = page.locator("pi-session-tree");
  await tree
    .getByRole("treeitem")
    .filter({ hasText: /^\s*You\s*Describe autumn/ })
    .click();
  const question = tree.getByText(/^Branch before “Describe autumn”\?/);
  await question.waitFor();
  const promise = await question.textContent();
  assert.doesNotMatch(
    promise ?? "",
    /stays in the tree/,
    "the tree holds only this file's entries",
  );
  assert.match(promise ?? "", /kept/);
  await tree.getByRole("button", { name: "Branch here" }).click();
  await chat(page).getByText("Echo: Describe autumn").waitFor({ state: "detached" });

  // The other version is listed in the sidebar and below the tree, where one click opens it.
  await fork(page, "Describe spring").waitFor();
  await tree.getByRole("button", { name: /^Describe spring/ }).click();
  await chat(page).getByText("Echo: Describe autumn", { exact: true }).waitFor();
  // The tree follows the file shown: the branch is back in it, marked current.
  await tree
    .getByRole("treeitem", { name: /current/ })
    .filter({ hasText: /Echo: Describe autumn/ })
    .waitFor();
  // ...and the highlight follows it there, not staying on an entry both versions share.
  await tree
    .getByRole("treeitem", { selected: true })
    .filter({ hasText: /Echo: Describe autumn/ })
    .waitFor();
  await page.close();
});

test("branching at the first message leaves no stale title", async () => {
  const page = await h.newPage({ session: "solo" });
  await connected(page);
  await say(page, "Plan a picnic");
  await heading(page)
    .filter({ hasText: /^Plan a picnic$/ })
    .waitFor();
  await openPanel(page);
  await forkAt(page, "Plan a picnic");

  await chat(page).getByText("Echo: Plan a picnic").waitFor({ state: "detached" });
  await heading(page)
    .filter({ hasText: /^Plan a picnic \(fork\)$/ })
    .waitFor();
  await row(page, "Plan a picnic (fork)").waitFor();
  await fork(page, "Plan a picnic").waitFor();
  await page.close();
});

test("New chat adds nothing to the history until the first message is sent", async () => {
  const page = await h.newPage({ session: "kept" });
  await connected(page);
  await say(page, "Keep this conversation");
  await row(page, "Keep this conversation").waitFor();

  for (let i = 0; i < 3; i++) {
    const before = page.url();
    await sessionList(page).getByRole("button", { name: "New chat" }).click();
    await page.waitForURL((url) => url.href !== before && /session=s-/.test(url.search));
    await shown(page);
  }
  // Each click made a session on the bridge, and none of them is in the history.
  await sessionList(page).evaluate((element) =>
    (element as unknown as { refresh(): Promise<void> }).refresh(),
  );
  assert.equal(await row(page, "New conversation").count(), 0, "no empty conversation is listed");
  assert.equal(
    await sessionList(page).locator("[part~=open-button]").count(),
    await rowsOnBridge(),
  );

  await say(page, "A conversation at last");
  await row(page, "A conversation at last").waitFor();
  assert.equal(await row(page, "New conversation").count(), 0);
  await page.close();
});

test("a new conversation is listed and titled while its first run still waits", async () => {
  const page = await h.newPage({ session: "kept" });
  await connected(page);
  const before = page.url();
  await sessionList(page).getByRole("button", { name: "New chat" }).click();
  await page.waitForURL((url) => url.href !== before && /session=s-/.test(url.search));
  await shown(page);
  // The shell command waits for the user's approval, so its run cannot end on its own.
  await page.getByRole("button", { name: /Run a shell command/ }).click();
  // pi-kit's permission extension asks (the demo runs in auto-edits).
  const approval = page.getByRole("dialog", { name: /^Run this command\?/ });
  await approval.waitFor();
  await row(page, "List the files in the workspace").waitFor();
  await heading(page).getByText("List the files in the workspace").waitFor();
  assert.equal(await approval.isVisible(), true, "the run still waits for its approval");
  await h.screenshot("history-first-message", page);
  await approval.getByRole("option", { name: "Deny" }).click();
  await approval.waitFor({ state: "detached" });
  await page.close();
});

/** How many conversations the bridge's history lists. */
async function rowsOnBridge(): Promise<number> {
  return (await h.demo.bridge.history.list({ limit: 100 })).sessions.length;
}
