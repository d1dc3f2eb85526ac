/**
 * `@` file mentions (issue 27): typing `@` in the composer opens the workspace's files (the
 * bridge's file search), the keyboard picks one, it shows as a chip, and the prompt pi receives
 * carries `@path` as pi's TUI writes it. Screenshots of the menu at 1280 and 390 px, light and dark.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { chat, connected, EVERY_VIEW, type Harness, startHarness } from "./harness.ts";

let h: Harness;
before(async () => {
  h = await startHarness();
  const workspace = join(h.demo.stateDir, "workspace");
  for (const dir of ["docs", "src/parser", ".git"])
    mkdirSync(join(workspace, dir), { recursive: true });
  for (const file of [
    "docs/plan.md",
    "docs/planning notes.md",
    "src/parser/plain-text.ts",
    ".git/plan-secret",
  ]) {
    writeFileSync(join(workspace, file), "");
  }
});
after(async () => {
  await h?.close();
});

for (const [size, viewport, scheme] of EVERY_VIEW) {
  test(`${size} ${scheme}: @ lists the workspace's files, Enter picks one, pi gets @path`, async () => {
    const page = await h.newPage({
      session: `mention-${size}-${scheme}`,
      viewport,
      colorScheme: scheme,
    });
    await connected(page);
    const composer = page.locator("pi-chat textarea");
    await composer.click();
    await composer.pressSequentially("Summarise @pla");
    const menu = page.locator("pi-mention-menu");
    await menu.getByRole("option").first().waitFor();
    await menu.getByRole("option", { name: /plan\.md/ }).waitFor();
    // Hidden directories are never offered.
    await menu.getByText("plan-secret").waitFor({ state: "detached" });
    await h.screenshot(`mention-menu-${size}-${scheme}`, page);
    await composer.press("ArrowDown");
    await composer.press("ArrowUp");
    await composer.press("Enter");
    await menu.getByRole("listbox").waitFor({ state: "detached" });
    if ((await composer.inputValue()) !== "Summarise @docs/plan.md ") {
      throw new Error(`the composer holds ${JSON.stringify(await composer.inputValue())}`);
    }
    await menu.locator("[part~=mention]", { hasText: "@docs/plan.md" }).waitFor();
    await h.screenshot(`mention-chip-${size}-${scheme}`, page);
    await composer.pressSequentially("please");
    await composer.press("Enter");
    await chat(page).getByText("Echo: Summarise @docs/plan.md please", { exact: true }).waitFor();
  });
}
