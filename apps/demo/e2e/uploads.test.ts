/**
 * Uploads (issue 27): a file that is not an image, picked in the composer, goes to the bridge
 * under the workspace's `.pi-kit/uploads/`, shows its name, size and progress while it goes, and
 * the prompt pi receives names it as `@path`; the bytes on disk are the file's. Screenshots of an
 * upload in progress (held by the test until taken) at 1280 and 390 px, light and dark.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Route } from "playwright-core";
import { chat, connected, EVERY_VIEW, type Harness, startHarness, VIEWPORTS } from "./harness.ts";

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

/** Every byte value, then text (2.6 MB: three chunks): what arrives must be these bytes exactly. */
const content = Buffer.concat([
  Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
  Buffer.from("notes for pi\n".repeat(200_000)),
]);

for (const [size, viewport, scheme] of EVERY_VIEW) {
  test(`${size} ${scheme}: a picked file uploads with its progress shown, and pi gets @path`, async () => {
    const page = await h.newPage({
      session: `upload-${size}-${scheme}`,
      viewport,
      colorScheme: scheme,
    });
    await connected(page);
    // The second chunk waits until the screenshot of the upload in progress is taken.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let seen: () => void = () => {};
    const chunkSeen = new Promise<void>((resolve) => {
      seen = resolve;
    });
    await page.route(/\/uploads\/[^/?]+\?offset=[1-9]/, async (route: Route) => {
      seen();
      await held;
      await route.continue();
    });
    const name = `meeting notes ${size}-${scheme}.bin`;
    await page
      .locator("pi-chat pi-composer input[type=file]")
      .setInputFiles({ name, mimeType: "application/octet-stream", buffer: content });
    const attachments = chat(page).locator("[part~=uploads]");
    await attachments.getByText(name).waitFor();
    await chunkSeen;
    await chat(page).getByRole("progressbar").first().waitFor();
    await h.screenshot(`upload-progress-${size}-${scheme}`, page);
    // The later chunks pass at once (the hold is released).
    release();
    await chat(page).getByRole("progressbar").waitFor({ state: "detached" });
    const composer = page.locator("pi-chat textarea");
    await composer.click();
    await composer.pressSequentially("Read this");
    await composer.press("Enter");
    const echo = chat(page).getByText(
      /^Echo: Read this.*@"\.pi-kit\/uploads\/[^/]+\/meeting notes/,
    );
    await echo.waitFor();
    const path = /@"(\.pi-kit\/uploads\/[^"]+)"/.exec((await echo.textContent()) ?? "")?.[1];
    if (path === undefined) throw new Error(`no @path in ${await echo.textContent()}`);
    const stored = readFileSync(join(h.demo.stateDir, "workspace", path));
    if (!stored.equals(content)) throw new Error(`${path} holds other bytes than the file`);
  });
}

test("a chunk lost to the network is sent again from where the bridge's copy ends", async () => {
  const page = await h.newPage({ session: "upload-resume", viewport: VIEWPORTS.desktop });
  await connected(page);
  let cut = 0;
  await page.route(/\/uploads\/[^/?]+\?offset=[1-9]/, async (route: Route) => {
    // The first try of the second chunk dies as a dropped connection does; the retry passes.
    if (cut++ === 0) await route.abort("connectionreset");
    else await route.continue();
  });
  const name = "resumed.bin";
  await page
    .locator("pi-chat pi-composer input[type=file]")
    .setInputFiles({ name, mimeType: "application/octet-stream", buffer: content });
  await chat(page).locator("[part~=uploads]").getByText(name).waitFor();
  await chat(page).getByRole("progressbar").waitFor({ state: "detached" });
  const composer = page.locator("pi-chat textarea");
  await composer.click();
  await composer.pressSequentially("Resumed");
  await composer.press("Enter");
  const echo = chat(page).getByText(/^Echo: Resumed @\.pi-kit\/uploads\/[^/]+\/resumed\.bin/);
  await echo.waitFor();
  const path = /@(\.pi-kit\/uploads\/\S+)/.exec((await echo.textContent()) ?? "")?.[1];
  if (cut < 2) throw new Error("the lost chunk was not sent again");
  const stored = readFileSync(join(h.demo.stateDir, "workspace", path ?? ""));
  if (!stored.equals(content)) throw new Error(`${path} holds other bytes than the file`);
});
