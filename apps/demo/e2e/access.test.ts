/**
 * The demo when the page and the server disagree: the address without its token, a token the
 * server no longer accepts, and a server restarted under an open tab (with its kept token, and
 * with a new one). Each says what happened and offers a remedy that works.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { generateToken } from "@pi-kit/bridge";
import { addressOf, connected, type Harness, say, startHarness } from "./harness.ts";

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

test("the bare address explains where the token is, and takes a pasted one", async () => {
  const page = await h.newPage({ token: false });
  await page.getByRole("heading", { name: "Open the demo with its access token" }).waitFor();
  assert.match((await page.locator(".card p").first().textContent()) ?? "", /#token=…/);
  assert.doesNotMatch(
    (await page.locator(".card").textContent()) ?? "",
    /`/,
    "no literal backticks",
  );
  await h.screenshot("token-missing", page);
  const field = page.getByLabel("Address or token");
  await field.fill("not a token");
  await page.getByRole("button", { name: "Connect" }).click();
  await page.getByText("That is not an address with #token=").waitFor();
  await field.fill(h.demo.openUrl);
  await page.getByRole("button", { name: "Connect" }).click();
  await connected(page);
  await page.close();
});

test("a server restarted with its kept token: the open tab reconnects by itself and says so, with nothing to reload", async () => {
  const page = await h.newPage({ session: "restart" });
  await connected(page);
  await h.restart();
  const banner = page.getByRole("status").filter({ hasText: "The server restarted" });
  await banner.waitFor();
  await h.screenshot("server-restarted", page);
  // Everything works again: no "Reload page", only a notice to dismiss.
  assert.equal(await page.getByRole("button", { name: "Reload page" }).count(), 0);
  await banner.getByRole("button", { name: "Dismiss" }).click();
  await connected(page);
  assert.match(page.url(), /\?session=restart$/, "still the same conversation");
  await page.close();
});

test("the restart notice goes once read, or with the next message pi takes, and never shows on another conversation", async () => {
  const page = await h.newPage({ session: "restart-notice" });
  await connected(page);
  const banner = page.getByRole("status").filter({ hasText: "The server restarted" });
  await h.restart();
  await banner.waitFor();
  await say(page, "After the restart");
  await banner.waitFor({ state: "detached" });

  await h.restart();
  await banner.waitFor();
  await page.getByRole("button", { name: "New chat" }).click();
  await page.waitForURL((url) => !url.search.endsWith("=restart-notice"));
  await connected(page);
  assert.equal(await banner.count(), 0, "not on another conversation");
  await page.goBack();
  await page.waitForURL(/\?session=restart-notice$/);
  await connected(page);
  assert.equal(await banner.count(), 0, "nor back on the first");

  await h.restart();
  await banner.waitFor();
  // Left alone, it goes once there was time to read it.
  await banner.waitFor({ state: "detached", timeout: 20_000 });
  await page.close();
});

test("a server restarted with a new token: the old tab says so, and the printed address in another tab reconnects it", async () => {
  const page = await h.newPage({ session: "new-token" });
  await connected(page);
  await h.restart({ token: generateToken() });
  const heading = page.getByRole("heading", { name: "Open the demo with its access token" });
  await heading.waitFor();
  await page.getByText("did not accept this tab's access token").waitFor();
  await h.screenshot("token-rejected", page);
  // The user opens the newly printed address in another tab of the same browser.
  const other = await page.context().newPage();
  await other.goto(addressOf(h.demo, { session: "other" }));
  await connected(other);
  await connected(page);
  assert.match(page.url(), /\?session=new-token$/);
  await other.close();
  await page.close();
});
