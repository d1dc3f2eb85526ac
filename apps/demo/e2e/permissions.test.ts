/**
 * pi-kit's permission extension in the demo (issue 26): it starts in auto-edits, where a write
 * runs and a shell command asks in its card; the picker in the header switches to Ask first,
 * where an edit asks and Deny leaves the file alone, and to Full access, where nothing asks; the
 * mode survives a reload. Screenshots of each question at 1280 and 390 px, light and dark.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Page } from "playwright-core";
import { chat, connected, EVERY_VIEW, type Harness, startHarness } from "./harness.ts";

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

async function send(page: Page, text: string): Promise<void> {
  await chat(page).getByRole("button", { name: "Send", exact: true }).waitFor();
  const composer = page.locator("pi-chat textarea");
  await composer.fill(text);
  await composer.press("Enter");
}

const picker = (page: Page) => page.locator("pi-permission-picker select");
const question = (page: Page) => page.getByRole("dialog", { name: /\?/ });

for (const [size, viewport, scheme] of EVERY_VIEW) {
  test(`${size} ${scheme}: auto-edits asks only for the shell; Ask first asks for an edit and Deny keeps the file; Full access asks nothing`, async () => {
    const session = `permissions-${size}-${scheme}`;
    const page = await h.newPage({ session, viewport, colorScheme: scheme });
    await connected(page);
    assert.equal(await picker(page).inputValue(), "auto-edits", "the demo starts in auto-edits");

    await send(page, "[[write notes.txt hello]]");
    await chat(page).getByText("Tool write returned: Successfully wrote").waitFor();
    assert.equal(await question(page).count(), 0, "a write in the workspace did not ask");

    await send(page, "[[bash cat notes.txt]]");
    // The card shows the command once (its body); the question asks in a line.
    await question(page).getByText("Run this command?", { exact: true }).waitFor();
    await chat(page).getByText("$ cat notes.txt").waitFor();
    await h.screenshot(`permission-auto-edits-${size}-${scheme}`, page);
    await page.getByRole("option", { name: "Allow once" }).click();
    await chat(page).getByText("Tool bash returned: hello").waitFor();

    await picker(page).selectOption("ask");
    await chat(page).locator("[part~=status-bar]").getByText("ask", { exact: true }).waitFor();
    await send(page, "[[edit notes.txt hello => bye]]");
    await question(page).getByText("Edit notes.txt?", { exact: true }).waitFor();
    await h.screenshot(`permission-ask-${size}-${scheme}`, page);
    await page.getByRole("option", { name: "Deny" }).click();
    await chat(page)
      .getByText(/Tool edit returned: The user denied this edit call/)
      .waitFor();
    await send(page, "[[bash cat notes.txt]]");
    await page.getByRole("option", { name: "Allow once" }).click();
    await chat(page).getByText("Tool bash returned: hello").nth(1).waitFor();

    await picker(page).selectOption("full");
    await chat(page).locator("[part~=status-bar]").getByText("full", { exact: true }).waitFor();
    await send(page, "[[bash echo unasked]]");
    await chat(page).getByText("Tool bash returned: unasked").waitFor();
    assert.equal(await question(page).count(), 0, "full access asked nothing");

    // The mode is pi's, kept by the bridge for whoever joins: a reload shows it at once.
    await page.reload();
    await connected(page);
    await picker(page).waitFor();
    assert.equal(await picker(page).inputValue(), "full");
    await page.close();
  });
}
