/**
 * The demo end to end: real pi 1.x behind the bridge, the built page in Debian's Chromium driven
 * by Playwright. One page goes through the states a newcomer sees, in order.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { dialogShown, type Harness, runCommand, startHarness } from "./harness.ts";

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const chat = () => h.page.locator("pi-chat");
const composer = () => h.page.locator("pi-chat textarea");

async function send(text: string): Promise<void> {
  await composer().fill(text);
  await composer().press("Enter");
}

test("a fresh start connects to pi and says the model is scripted", async () => {
  await h.open();
  await h.page.getByText("scripted model").first().waitFor();
  await h.screenshot("start");
});

test("a prompt streams its answer into the transcript", async () => {
  await send("[[text The quick brown fox jumps over the lazy dog]]");
  await chat().getByText("The quick brown fox jumps over the lazy dog", { exact: true }).waitFor();
  await h.screenshot("answer");
});

test("an extension dialog is answered from the page", async () => {
  await runCommand(h.page, "demo-confirm");
  const dialog = await dialogShown(h.page);
  await h.screenshot("dialog");
  await dialog.getByRole("button", { name: "Yes" }).click();
  await h.page.getByText("confirm: yes").first().waitFor();
});

test("a shell command asks first (auto-edits), then shows its live output and result", async () => {
  await send("[[bash for i in 1 2 3 4 5 6; do echo line-$i; sleep 0.3; done]]");
  // The demo starts in auto-edits: pi-kit's permission extension asks before a shell command.
  await h.page.getByRole("option", { name: "Allow once" }).click();
  // Output shows while the command still runs (the card collapses to a summary once done).
  await chat().getByText("line-2").first().waitFor();
  assert.ok(await chat().getByText("running", { exact: true }).first().isVisible());
  await h.screenshot("tool-call");
  await chat().getByText("Tool bash returned: line-1 line-2 line-3 line-4 line-5 line-6").waitFor();
});

test("Stop aborts a streaming answer", async () => {
  await send("[[slow 150ms x 100]]");
  await chat()
    .getByText(/tick 3/)
    .first()
    .waitFor();
  await h.page.getByRole("button", { name: "Stop" }).click();
  await chat()
    .getByText(/aborted/i)
    .first()
    .waitFor();
  await h.screenshot("aborted");
});

test("a reload brings the transcript back from the session", async () => {
  await h.page.reload();
  await h.page.getByText("Connected", { exact: true }).first().waitFor();
  await chat().getByText("The quick brown fox jumps over the lazy dog", { exact: true }).waitFor();
  await chat()
    .getByText(/^Tool bash returned/)
    .first()
    .waitFor();
});

test("when pi dies the page says so and restarts it", async () => {
  const sessions = h.demo.bridge.sessions.list();
  const pid = sessions.find((s) => s.name === "main")?.pid;
  assert.ok(pid, "the main session has a pi process");
  process.kill(pid, "SIGKILL");
  const alert = h.page.getByRole("alert").filter({ hasText: "pi was stopped by SIGKILL" });
  await alert.waitFor();
  await h.screenshot("pi-stopped");
  await alert.getByRole("button", { name: "Restart pi" }).click();
  await h.page.getByText("Connected", { exact: true }).first().waitFor();
  await send("[[text back again]]");
  await chat().getByText("back again", { exact: true }).waitFor();
});

test("the plain-HTML page embeds <pi-chat> with one script tag and no build step", async () => {
  const page = await h.browser.newPage();
  try {
    await page.goto(`${h.demo.url}/static.html#token=${h.demo.token}`);
    const textarea = page.locator("pi-chat textarea");
    await page.getByText("Connected", { exact: true }).first().waitFor();
    await textarea.fill("[[text Hello from a static page]]");
    await textarea.press("Enter");
    await page.locator("pi-chat").getByText("Hello from a static page", { exact: true }).waitFor();
  } finally {
    await page.close();
  }
});
