/**
 * Two viewers of one conversation in the demo, end to end (real pi 1.x behind the bridge, Debian's
 * Chromium): a desk and a phone open the same session. The first drives it; the other watches the
 * answer stream in, sees the desk's dialog without buttons and sees it close when the desk
 * answers, then takes control and drives pi while the desk watches.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Page } from "playwright-core";
import { TabNumbers } from "../server/tab-numbers.ts";
import { tabNumber, viewerLabel } from "../src/viewer-label.ts";
import {
  addressOf,
  chat,
  connected,
  dialogShown,
  type Harness,
  runCommand,
  startHarness,
  VIEWPORTS,
} from "./harness.ts";

let h: Harness;
let desk: Page;
let phone: Page;
before(async () => {
  h = await startHarness();
  desk = await h.newPage({ session: "shared" });
  await connected(desk);
  // A second tab of the same browser, narrowed to a phone's width.
  phone = await desk.context().newPage();
  await phone.setViewportSize(VIEWPORTS.phone);
  await phone.emulateMedia({ colorScheme: "dark" });
  await phone.goto(addressOf(h.demo, { session: "shared" }));
  await connected(phone);
});
after(async () => {
  await h?.close();
});

const watchBar = (page: Page) => chat(page).locator("[part=watch-bar]");

async function send(page: Page, text: string): Promise<void> {
  const composer = page.locator("pi-chat textarea");
  await composer.fill(text);
  await composer.press("Enter");
}

test("each page is named by its browser and system for the others", () => {
  const cases = {
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1":
      "Safari on iPhone",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36":
      "Chrome on Android",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0":
      "Edge on Windows",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0":
      "Firefox on Mac",
    "curl/8.5.0": "Browser",
  };
  for (const [agent, label] of Object.entries(cases)) assert.equal(viewerLabel(agent), label);
});

test("two tabs of one browser are told apart by their tab numbers", () => {
  const tab = new Map<string, string>();
  const shared = new Map<string, string>();
  const storage = (map: Map<string, string>) => ({
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
  });
  assert.equal(tabNumber(storage(tab), storage(shared)), 1);
  assert.equal(tabNumber(storage(tab), storage(shared)), 1, "a reload keeps the number");
  assert.equal(tabNumber(storage(new Map()), storage(shared)), 2, "another tab gets the next");
});

test("tab numbers are unique across browsers: a reload keeps its number, another tab gets the lowest free", () => {
  const tabs = new TabNumbers();
  assert.equal(tabs.claim("a"), 1);
  assert.equal(tabs.claim("a", 1), 1, "a reload keeps the number");
  assert.equal(tabs.claim("b", 1), 2, "another browser's tab 1 is tab 2 here");
  assert.equal(tabs.claim("c", 7), 7, "a number kept across a restart stays");
  assert.equal(tabs.claim("d"), 3);
});

test("the second tab watches: it says who is in control, and it cannot send", async () => {
  // Both tabs are the same headless Chromium: their tab numbers tell them apart.
  await watchBar(phone).getByText("Watching — Chrome on Linux · tab 1 is in control").waitFor();
  await chat(phone).getByRole("button", { name: "Take control" }).waitFor();
  await chat(phone).locator("[part=send-button][disabled]").waitFor();
  await chat(desk).getByRole("button", { name: "Send", exact: true }).waitFor();
  // The composer says it watches; what is typed stays there instead of being lost.
  const composer = phone.locator("pi-chat textarea");
  assert.equal(await composer.getAttribute("placeholder"), "Watching — take control to send");
  await composer.fill("typed while watching");
  await composer.press("Enter");
  assert.equal(await composer.inputValue(), "typed while watching");
  await composer.fill("");
});

test("the watcher sees the controller's answer stream in", async () => {
  await send(desk, "[[text Both screens show this answer]]");
  for (const page of [desk, phone]) {
    await chat(page).getByText("Both screens show this answer", { exact: true }).waitFor();
  }
  await h.screenshot("viewers-watching-phone", phone);
});

test("during the controller's run the watcher's Stop, Steer and Follow up are off, saying why", async () => {
  await send(desk, "[[slow 300ms x 40]]");
  const stop = chat(phone).getByRole("button", { name: "Stop", exact: true });
  await stop.waitFor();
  for (const name of ["Stop", "Steer", "Follow up"]) {
    const button = chat(phone).getByRole("button", { name, exact: true });
    assert.equal(await button.isDisabled(), true, name);
    assert.equal(await button.getAttribute("title"), "Watching — take control to send", name);
  }
  for (const colorScheme of ["dark", "light"] as const) {
    await phone.emulateMedia({ colorScheme });
    await h.screenshot(`viewers-watching-run-phone-${colorScheme}`, phone);
  }
  await chat(desk).getByRole("button", { name: "Stop", exact: true }).click();
  await stop.waitFor({ state: "detached" });
});

test("the controller's dialog shows on the watcher without buttons, and closes there when answered", async () => {
  await runCommand(desk, "demo-confirm");
  const deskDialog = await dialogShown(desk);
  const phoneDialog = phone.getByRole("alertdialog");
  await phoneDialog.getByText("Only the viewer in control can answer").waitFor();
  await deskDialog.getByRole("button", { name: "Yes" }).click();
  await desk.getByText("confirm: yes").first().waitFor();
  await phoneDialog.waitFor({ state: "detached" });
});

test("the watcher takes control and drives pi; the desk watches from then on", async () => {
  await chat(phone).getByRole("button", { name: "Take control" }).click();
  await watchBar(desk).getByText("Watching — Chrome on Linux · tab 2 is in control").waitFor();
  await send(phone, "[[text Sent from the phone]]");
  for (const page of [desk, phone]) {
    await chat(page).getByText("Sent from the phone", { exact: true }).waitFor();
  }
  await h.screenshot("viewers-watching-desk", desk);
});

test("another browser of the same kind is another tab number, never the controller's", async () => {
  const context = await h.browser.newContext({ viewport: VIEWPORTS.desktop });
  try {
    const other = await context.newPage();
    await other.goto(addressOf(h.demo, { session: "shared" }));
    await connected(other);
    await watchBar(other).getByText("Watching — Chrome on Linux · tab 2 is in control").waitFor();
    await chat(other).getByRole("button", { name: "Take control" }).click();
    await watchBar(desk).getByText("Watching — Chrome on Linux · tab 3 is in control").waitFor();
    await watchBar(phone).getByText("Watching — Chrome on Linux · tab 3 is in control").waitFor();
  } finally {
    await context.close();
  }
  await chat(phone).getByRole("button", { name: "Take control" }).click();
  await watchBar(desk).getByText("Watching — Chrome on Linux · tab 2 is in control").waitFor();
});

test("after the server restarts, the tab that was in control gets it back, whichever tab is back first", async () => {
  // The phone is in control. It stays offline (Chromium's network emulation, this page only)
  // while the desk comes back first: the restarted bridge keeps control for the phone.
  await chat(phone).getByRole("button", { name: "Send", exact: true }).waitFor();
  const network = await phone.context().newCDPSession(phone);
  const offline = (on: boolean) =>
    network.send("Network.emulateNetworkConditions", {
      offline: on,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
  await offline(true);
  await h.restart();
  await desk.getByRole("status").filter({ hasText: "The server restarted" }).waitFor();
  await watchBar(desk).getByText("Watching — nobody is in control").waitFor();
  // Back online, the phone reconnects at its next attempt (at most 5 s away) and has control again.
  await offline(false);
  await watchBar(desk).getByText("Watching — Chrome on Linux · tab 2 is in control").waitFor();
  await watchBar(phone).waitFor({ state: "detached" });
  await chat(phone).getByRole("button", { name: "Send", exact: true }).waitFor();
  await network.detach();
});
