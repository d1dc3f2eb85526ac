/**
 * What pi changed, and undoing it (issue 26): a run of the scripted model writes a file; the count
 * beside the title says 1 file changed; the session panel's <pi-changes> lists it with its diff;
 * "Undo this turn" asks, saying what is lost, and puts the workspace back (the file is gone, on
 * disk too), and the count goes. Screenshots of the panel and of the question at 1280 and 390 px,
 * light and dark.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { chat, connected, EVERY_VIEW, type Harness, startHarness, VIEWPORTS } from "./harness.ts";

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const PROMPT = "Write a short note to notes.md";

for (const [size, viewport, scheme] of EVERY_VIEW) {
  test(`${size} ${scheme}: a run writes a file, the count shows 1, the panel lists it, Undo this turn takes it back`, async () => {
    const page = await h.newPage({
      session: `changes-${size}-${scheme}`,
      viewport,
      colorScheme: scheme,
    });
    await connected(page);
    await page.getByRole("button", { name: /Write a file/ }).click();
    await chat(page).getByText("Tool write returned: Successfully wrote").waitFor();
    assert.equal(existsSync(join(h.demo.stateDir, "workspace", "notes.md")), true);

    // The count beside the title follows the run's end, and opens the panel.
    const count = page.locator("demo-app .changes-count");
    await count.getByText("1 file changed", { exact: true }).waitFor();
    // On a phone the panel covers the title: the count gets a picture of its own.
    if (size === "phone") await h.screenshot(`changes-count-${size}-${scheme}`, page);
    await count.click();
    const panel = page.locator("pi-changes");
    const row = panel.locator("[part~=file]", { hasText: "notes.md" });
    await row.getByText("Added", { exact: true }).waitFor();
    await row.getByRole("button", { name: /notes\.md/, expanded: false }).click();
    await row.getByText("pi wrote this file.", { exact: false }).waitFor();
    await h.screenshot(`changes-panel-${size}-${scheme}`, page);

    const run = panel.locator("[part~=run]", { hasText: PROMPT });
    await run.getByRole("button", { name: /^Undo this turn/ }).click();
    await run
      .getByText(
        `Undo this turn: 1 file goes back to how it was before “${PROMPT}”; changes made since are lost.`,
      )
      .waitFor();
    await h.screenshot(`changes-undo-${size}-${scheme}`, page);
    await run.getByRole("button", { name: "Undo this turn", exact: true }).click();

    await panel.getByText(`The workspace is back to how it was before “${PROMPT}”.`).waitFor();
    await panel.getByText("No files have changed since the session started.").waitFor();
    await count.waitFor({ state: "detached" });
    // On disk too: the scripted pi's workspace is back as it was.
    assert.equal(existsSync(join(h.demo.stateDir, "workspace", "notes.md")), false);
    await page.close();
  });
}

test("a tab that watches sees the changes but cannot revert or undo, and says why", async () => {
  const session = "changes-watched";
  const desk = await h.newPage({ session });
  await connected(desk);
  await desk.getByRole("button", { name: /Write a file/ }).click();
  await chat(desk).getByText("Tool write returned: Successfully wrote").waitFor();
  const phone = await h.newPage({ session, viewport: VIEWPORTS.phone });
  await chat(phone).locator("[part=watch-bar]").waitFor();
  await phone.locator("demo-app .changes-count").getByText("1 file changed").click();
  const panel = phone.locator("pi-changes");
  await panel
    .getByText("Only the tab in control can revert files or undo turns; this one is watching.")
    .waitFor();
  const row = panel.locator("[part~=file]", { hasText: "notes.md" });
  assert.equal(await row.getByRole("button", { name: "Revert file notes.md" }).isDisabled(), true);
  assert.equal(await panel.getByRole("button", { name: /^Undo this turn/ }).isDisabled(), true);
  // The desk, in control, undoes it; the file is gone on disk.
  await desk.locator("demo-app .changes-count").click();
  const deskPanel = desk.locator("pi-changes");
  await deskPanel.getByRole("button", { name: /^Undo this turn/ }).click();
  await deskPanel.getByRole("button", { name: "Undo this turn", exact: true }).click();
  await deskPanel.getByText("No files have changed since the session started.").waitFor();
  assert.equal(existsSync(join(h.demo.stateDir, "workspace", "notes.md")), false);
  await phone.close();
  await desk.close();
});
