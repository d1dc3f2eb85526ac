/**
 * Each framework example, built by its own tooling, driven in Chromium against real pi: the
 * client reaches <pi-chat> as a property, the header slot shows the session snapshot through the
 * framework's reactivity and the app's pi-send count, the theme token applies, a prompt is
 * answered, and an extension dialog is answered.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { APPS, answerDialog, type Site, send, startSite } from "./harness.ts";

let site: Site;
before(async () => {
  site = await startSite();
});
after(async () => {
  await site?.close();
});

for (const app of APPS) {
  test(`${app.label}: a prompt answered, pi-send handled, a dialog answered`, async () => {
    const { page, failures } = await site.open(app.name);
    try {
      const chat = page.locator("pi-chat");
      await page.getByText("Connected", { exact: true }).first().waitFor();
      await page.getByText(`${app.label} · 0 sent · 0 messages`, { exact: true }).waitFor();
      await page.getByText("Ask pi anything.", { exact: true }).waitFor();
      assert.deepEqual(
        await chat.evaluate((el: HTMLElement & { client?: unknown }) => ({
          client: el.client !== undefined && !el.hasAttribute("client"),
          accent: getComputedStyle(el).getPropertyValue("--pi-color-accent").trim(),
        })),
        { client: true, accent: "#0b7a5c" },
      );

      await send(page, `[[text Hello from ${app.label}]]`);
      await chat.getByText(`Hello from ${app.label}`, { exact: true }).waitFor();
      // The snapshot the framework holds follows the session: it counts the messages as the chat
      // shows them (the question and the answer, not pi's internal notices).
      await page.getByText(`${app.label} · 1 sent · 2 messages`, { exact: true }).waitFor();

      await answerDialog(page);
      assert.deepEqual(failures, []);
    } finally {
      await page.close();
    }
  });
}
