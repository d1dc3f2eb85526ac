/**
 * Nothing the user types is lost, and the page says what is going on, end to end (real pi 1.x
 * behind the bridge, Debian's Chromium): a message typed while the conversation connects waits,
 * visibly pending, and is answered once connected; the first load shows one status line and no
 * made-up title; a progress line runs from the send until the first token and while a tool runs;
 * the suggestions read as text; on a phone one toast line at a time, never over the conversation.
 * Screenshots of each state go to `docs/demo/`.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Page, WebSocketRoute } from "playwright-core";
import {
  addressOf,
  axeFindings,
  chat,
  connected,
  type Harness,
  runCommand,
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

async function send(page: Page, text: string): Promise<void> {
  const composer = page.locator("pi-chat textarea");
  await composer.fill(text);
  await composer.press("Enter");
}

/**
 * Opens session `session` with its WebSocket held until `release()` (Playwright's WebSocket
 * route: the page's socket stays connecting until the route connects it to the bridge).
 */
async function openHeld(
  session: string,
  viewport: { width: number; height: number },
  colorScheme: "light" | "dark",
  address = addressOf(h.demo, { session }),
): Promise<{ page: Page; release: () => void }> {
  const context = await h.browser.newContext({ viewport, colorScheme });
  const page = await context.newPage();
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.routeWebSocket(/\/sessions\/.+\/ws/, async (socket) => {
    await held;
    socket.connectToServer();
  });
  await page.goto(address);
  return { page, release };
}

for (const [size, viewport, scheme] of [
  ["desktop", VIEWPORTS.desktop, "light"],
  ["phone", VIEWPORTS.phone, "dark"],
] as const) {
  test(`${size}: a message sent while the conversation connects waits, visibly, then is answered`, async () => {
    const { page, release } = await openHeld(`early-${size}`, viewport, scheme);
    try {
      const composer = page.locator("pi-chat textarea");
      await composer.fill("Hello before connecting");
      await composer.press("Enter");
      await composer.fill("And a second one");
      await composer.press("Enter");
      const pending = chat(page).locator("[part=pending-message]");
      await pending.getByText("And a second one", { exact: true }).waitFor();
      await pending.getByText("Hello before connecting", { exact: true }).waitFor();
      assert.equal(await pending.getByText("Sending when connected…").count(), 2);
      // One status line (the chat's, saying so), no title made up from the session's name.
      await chat(page).getByText("Connecting…", { exact: true }).waitFor();
      assert.equal(await chat(page).getByText("No client").count(), 0);
      assert.equal(await page.locator("demo-app .banner").count(), 0, "no banner while connecting");
      assert.equal(
        (await page.locator("demo-app h1").textContent())?.trim(),
        "Opening the conversation…",
      );
      assert.equal(await page.getByText("No conversations yet").count(), 0);
      const findings = await axeFindings(page);
      assert.deepEqual(findings, [], `axe: ${JSON.stringify(findings, null, 2)}`);
      await h.screenshot(`sending-before-connected-${size}-${scheme}`, page);

      release();
      await connected(page);
      await chat(page).getByText("Echo: Hello before connecting", { exact: true }).waitFor();
      // The second follows the first (pi queued it behind the run the first started).
      await chat(page).getByText("Echo: And a second one", { exact: true }).waitFor();
      await pending.first().waitFor({ state: "detached" });
      // Each sent exactly once, in order.
      const bubbles = await chat(page)
        .locator("pi-message[role-name=user]")
        .evaluateAll((els) => els.map((el) => el.shadowRoot?.querySelector(".plain")?.textContent));
      assert.deepEqual(bubbles, ["Hello before connecting", "And a second one"]);
    } finally {
      await page.context().close();
    }
  });
}

test("a message still waiting when the page reloads is kept, then sent once, in order", async () => {
  const { page, release } = await openHeld("reloaded", VIEWPORTS.desktop, "light");
  try {
    await send(page, "Typed before the reload");
    await send(page, "And another");
    const pending = chat(page).locator("[part=pending-message]");
    await pending.getByText("And another", { exact: true }).waitFor();
    await page.reload();
    // Back, still connecting: both are there again, waiting, in order.
    await pending.getByText("And another", { exact: true }).waitFor();
    assert.deepEqual(await pending.locator(".plain").allTextContents(), [
      "Typed before the reload",
      "And another",
    ]);
    release();
    await chat(page).getByText("Echo: And another", { exact: true }).waitFor();
    await pending.first().waitFor({ state: "detached" });
    const bubbles = await chat(page)
      .locator("pi-message[role-name=user]")
      .evaluateAll((els) => els.map((el) => el.shadowRoot?.querySelector(".plain")?.textContent));
    assert.deepEqual(bubbles, ["Typed before the reload", "And another"]);
    // Sent once: another reload, connected, shows them once and nothing waiting.
    await page.reload();
    await connected(page);
    await chat(page).getByText("Echo: And another", { exact: true }).waitFor();
    assert.equal(await pending.count(), 0);
    assert.equal(await chat(page).getByText("Typed before the reload", { exact: true }).count(), 1);
  } finally {
    await page.context().close();
  }
});

test("reconnecting: a message sent while the server restarts waits, then goes once", async () => {
  const context = await h.browser.newContext({ viewport: VIEWPORTS.desktop });
  const page = await context.newPage();
  // The first socket goes through; the next ones (reconnects) are held until released.
  const sockets: WebSocketRoute[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.routeWebSocket(/\/sessions\/.+\/ws/, async (socket) => {
    sockets.push(socket);
    if (sockets.length > 1) await held;
    socket.connectToServer();
  });
  try {
    await page.goto(addressOf(h.demo, { session: "drop" }));
    await connected(page);
    // The server restarts (same port, token and sessions): the page's socket drops.
    await h.restart();
    await chat(page).getByText("Reconnecting…").first().waitFor();
    await send(page, "Hello while reconnecting");
    const pending = chat(page).locator("[part=pending-message]");
    await pending.getByText("Sending when connected…").waitFor();
    release();
    await chat(page).getByText("Echo: Hello while reconnecting", { exact: true }).waitFor();
    await pending.waitFor({ state: "detached" });
    assert.equal(
      await chat(page).getByText("Hello while reconnecting", { exact: true }).count(),
      1,
    );
  } finally {
    await context.close();
  }
});

test("the plain-HTML page: a message sent before <pi-chat> has its client waits, then goes once", async () => {
  const { page, release } = await openHeld(
    "static",
    VIEWPORTS.desktop,
    "light",
    `${h.demo.url}/static.html#token=${h.demo.token}`,
  );
  try {
    await page.evaluate(() => {
      const sent: string[] = [];
      (window as unknown as { sent: string[] }).sent = sent;
      document.querySelector("pi-chat")?.addEventListener("pi-send", (e) => {
        sent.push((e as Event & { text: string }).text);
      });
    });
    const composer = page.locator("pi-chat textarea");
    await composer.fill("Hello from a plain page");
    await composer.press("Enter");
    await chat(page)
      .locator("[part=pending-message]")
      .getByText("Sending when connected…")
      .waitFor();
    release();
    await chat(page).getByText("Echo: Hello from a plain page", { exact: true }).waitFor();
    assert.deepEqual(await page.evaluate(() => (window as unknown as { sent: string[] }).sent), [
      "Hello from a plain page",
    ]);
  } finally {
    await page.context().close();
  }
});

for (const [size, viewport, scheme] of [
  ["desktop", VIEWPORTS.desktop, "light"],
  ["phone", VIEWPORTS.phone, "dark"],
] as const) {
  test(`${size}: a progress line runs from the send until the first token, and while a tool runs`, async () => {
    const page = await h.newPage({ session: `progress-${size}`, viewport, colorScheme: scheme });
    try {
      await connected(page);
      const progress = chat(page).locator("[part=progress]");
      await send(page, "[[slow 1500ms x 2]]");
      await progress.getByText("pi is working…").waitFor();
      assert.equal(await progress.getAttribute("aria-live"), "polite");
      await chat(page).getByRole("progressbar", { name: "pi is working…" }).waitFor();
      const findings = await axeFindings(page);
      assert.deepEqual(findings, [], `axe: ${JSON.stringify(findings, null, 2)}`);
      await h.screenshot(`progress-${size}-${scheme}`, page);
      await chat(page)
        .getByText(/tick 2/)
        .waitFor();
      await progress.getByText("pi is working…").waitFor({ state: "detached" });

      await send(page, "[[bash sleep 3; echo slept]]");
      await page.getByRole("option", { name: "Allow once" }).click();
      await progress.getByText("Running bash…").waitFor();
      await chat(page).getByText("Tool bash returned: slept").waitFor();
      await progress.getByText("Running bash…").waitFor({ state: "detached" });
    } finally {
      await page.close();
    }
  });
}

test("the suggestions send natural language; the scripted model still streams slowly", async () => {
  const page = await h.newPage({ session: "suggest" });
  try {
    await connected(page);
    await page.getByRole("button", { name: "New chat" }).click();
    await page.waitForURL(/\?session=s-/);
    await connected(page);
    await page.getByRole("button", { name: /Stream a long answer/ }).click();
    const bubble = chat(page).locator("pi-message[role-name=user]").first();
    await bubble.getByText("Write a long story slowly", { exact: true }).waitFor();
    await chat(page)
      .getByText(/Once upon a time/)
      .waitFor();
    // Streaming, not all at once: the end comes later.
    assert.equal(
      await chat(page)
        .getByText(/until the end\./)
        .count(),
      0,
    );
    await chat(page)
      .getByText(/until the end\./)
      .waitFor();
    await page.locator("demo-app h1").getByText("Write a long story slowly").waitFor();
    assert.ok(!(await page.locator("demo-app h1").textContent())?.includes("[["));
  } finally {
    await page.close();
  }
});

test("on a phone one toast line shows at a time, between the conversation and the composer", async () => {
  const page = await h.newPage({
    session: "toasts",
    viewport: VIEWPORTS.phone,
    colorScheme: "dark",
  });
  try {
    await connected(page);
    await runCommand(page, "demo-notify");
    const toasts = chat(page).locator("[part=toast]");
    await toasts.filter({ hasText: "Deploy failed" }).waitFor({ state: "attached" });
    const visible = toasts.filter({ visible: true });
    await visible.first().waitFor();
    assert.equal(await visible.count(), 1, "one toast at a time");
    const toast = await visible.first().boundingBox();
    const log = await chat(page).locator("[part=transcript]").boundingBox();
    const composer = await chat(page).locator("[part=composer]").boundingBox();
    assert.ok(toast && log && composer);
    assert.ok(toast.y >= log.y + log.height - 1, "the toast is below the transcript");
    assert.ok(toast.y + toast.height <= composer.y + 1, "the toast is above the composer");
    assert.ok(toast.height < 60, `one line (${toast.height}px)`);
    await h.screenshot("toasts-phone-dark", page);
    // The newest, the error, can be dismissed (and would go by itself after a while).
    const error = visible.filter({ hasText: "Deploy failed" });
    await error.getByRole("button", { name: "Dismiss notification" }).click();
    await toasts.filter({ hasText: "Deploy failed" }).waitFor({ state: "detached" });
  } finally {
    await page.close();
  }
});
