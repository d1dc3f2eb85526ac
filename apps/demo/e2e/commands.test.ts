/**
 * Issue 26: a slash command typed while pi streams does what the user meant. The demo's
 * `/demo-confirm` (an extension command) runs at once: its question opens while the answer still
 * streams, and the composer is free again.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { chat, connected, dialogShown, type Harness, runCommand, startHarness } from "./harness.ts";

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

test("an extension command typed during a run runs at once", async () => {
  const page = await h.newPage({ session: "commands" });
  await connected(page);
  const composer = page.locator("pi-chat textarea");
  // Long enough (60 s) to be still streaming however loaded the machine is.
  await composer.fill("[[slow 150ms x 400]]");
  await composer.press("Enter");
  await chat(page)
    .getByText(/tick 3/)
    .first()
    .waitFor();
  await runCommand(page, "demo-confirm");
  const dialog = await dialogShown(page);
  assert.equal(await composer.inputValue(), "", "the command left the composer");
  assert.equal(await chat(page).getByRole("button", { name: "Stop" }).isVisible(), true);
  await dialog.getByRole("button", { name: "Yes" }).click();
  await chat(page).getByText("confirm: yes").first().waitFor();
  await chat(page).getByRole("button", { name: "Stop" }).click();
  await chat(page)
    .getByText(/aborted/i)
    .first()
    .waitFor();
  await page.close();
});
