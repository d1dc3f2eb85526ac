/**
 * While the page's socket to the server is down, end to end (real pi 1.x behind the bridge,
 * Debian's Chromium): the run no longer looks live (no Stop, Steer or Follow up, no "running" in
 * the sidebar), the banner says "Reconnecting…" without counting attempts, and the console gets
 * one line when the connection drops and one when it is back, not one per attempt.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { WebSocketRoute } from "playwright-core";
import {
  addressOf,
  chat,
  connected,
  type Harness,
  sessionList,
  startHarness,
  VIEWPORTS,
} from "./harness.ts";

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

test("with the socket down a run does not look live, and the console says so once", async () => {
  const context = await h.browser.newContext({ viewport: VIEWPORTS.desktop, colorScheme: "light" });
  const page = await context.newPage();
  // Every socket goes to the server, except while `down`: then each attempt is refused at once.
  const sockets: WebSocketRoute[] = [];
  let down = false;
  let refused = 0;
  let threeRefused!: () => void;
  const refusedThrice = new Promise<void>((resolve) => {
    threeRefused = resolve;
  });
  await page.routeWebSocket(/\/sessions\/.+\/ws/, (socket) => {
    if (down) {
      if (++refused === 3) threeRefused();
      socket.close({ code: 1012, reason: "restarting" });
      return;
    }
    sockets.push(socket);
    socket.connectToServer();
  });
  const lines: string[] = [];
  page.on("console", (message) => {
    if (message.text().startsWith("pi-kit demo:")) lines.push(message.text());
  });
  try {
    await page.goto(addressOf(h.demo, { session: "outage" }));
    await connected(page);
    const composer = page.locator("pi-chat textarea");
    await composer.fill("[[slow 400ms x 60]]");
    await composer.press("Enter");
    await chat(page)
      .getByText(/tick 2/)
      .waitFor();
    const stop = chat(page).getByRole("button", { name: "Stop", exact: true });
    await stop.waitFor();
    const badge = sessionList(page).getByText("running", { exact: true });
    await badge.waitFor();

    down = true;
    await sockets[0]?.close({ code: 1012, reason: "restarting" });
    const banner = page.locator("demo-app .banner");
    await banner.getByText("Connection lost. Reconnecting…", { exact: true }).waitFor();
    await stop.waitFor({ state: "detached" });
    assert.equal(await chat(page).getByRole("button", { name: "Steer" }).count(), 0);
    assert.equal(await chat(page).getByRole("button", { name: "Follow up" }).count(), 0);
    assert.equal(await chat(page).evaluate((el) => el.matches(":state(running)")), false);
    await badge.waitFor({ state: "hidden" });
    // Several attempts fail; the banner counts none of them, the console has one line.
    await refusedThrice;
    assert.doesNotMatch((await banner.textContent()) ?? "", /attempt|\d/);
    assert.deepEqual(lines, ["pi-kit demo: connection lost, reconnecting…"]);
    for (const [size, viewport] of Object.entries(VIEWPORTS))
      for (const colorScheme of ["light", "dark"] as const) {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme });
        await h.screenshot(`reconnecting-run-${size}-${colorScheme}`, page);
      }
    await page.setViewportSize(VIEWPORTS.desktop);

    // Retry now while the server still refuses: an automatic attempt let through first would take
    // the banner, and the button, away under the click. The next attempt gets through.
    await banner.getByRole("button", { name: "Retry now" }).click();
    down = false;
    await stop.waitFor();
    await banner.waitFor({ state: "detached" });
    assert.equal(lines.length, 2, lines.join("\n"));
    assert.match(lines[1] ?? "", /^pi-kit demo: connection back after \d+\.\d s$/);
  } finally {
    await context.close();
  }
});
