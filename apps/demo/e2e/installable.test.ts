/**
 * The demo as an installable app, on a phone emulated with touch (390x844, `hasTouch`,
 * `isMobile`): its manifest and icons, a service worker that keeps the shell so that a reload
 * without a network shows the app saying "You're offline" (not the browser's error page), touch
 * targets of at least 44 px in the header and the composer, and a composer that stays above the
 * on-screen keyboard. Screenshots of the offline page (1280 and 390 px) and of the phone's
 * composer over a keyboard, light and dark, go to `docs/demo/`.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { BrowserContext, Page } from "playwright-core";
import { chat, connected, type Harness, shots, startHarness, VIEWPORTS } from "./harness.ts";

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const OFFLINE = "You're offline";

/** A fresh browser profile on the demo: a touch phone, or a laptop with a mouse. */
async function openDemo(
  device: "phone" | "desktop",
  colorScheme: "light" | "dark",
): Promise<{ context: BrowserContext; page: Page }> {
  const phone = device === "phone";
  const context = await h.browser.newContext({
    viewport: VIEWPORTS[device],
    colorScheme,
    hasTouch: phone,
    isMobile: phone,
  });
  const page = await context.newPage();
  await page.goto(h.demo.openUrl);
  await connected(page);
  return { context, page };
}

/** Waits until the page is controlled by the demo's service worker (installed, shell cached). */
async function controlled(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** The visible buttons and selects inside `host` (through shadow roots), with their boxes. */
function targetsIn(
  page: Page,
  host: string,
): Promise<{ what: string; width: number; height: number }[]> {
  return page.locator(host).evaluate((element) => {
    const found: { what: string; width: number; height: number }[] = [];
    const roots: ParentNode[] = element.shadowRoot ? [element, element.shadowRoot] : [element];
    while (roots.length > 0) {
      const root = roots.pop() as ParentNode;
      for (const el of root.querySelectorAll<HTMLElement>("*")) {
        if (el.shadowRoot) roots.push(el.shadowRoot);
        if (!el.matches("button, select") || !el.checkVisibility()) continue;
        const box = el.getBoundingClientRect();
        const name = (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30);
        found.push({ what: `${el.localName} "${name}"`, width: box.width, height: box.height });
      }
    }
    return found;
  });
}

test("the manifest names the app, opens it standalone at / and lists icons that load", async () => {
  const { context, page } = await openDemo("phone", "light");
  const href = await page.locator("link[rel=manifest]").getAttribute("href");
  assert.ok(href, "the page links a manifest");
  const response = await page.request.get(new URL(href, h.demo.url).href);
  assert.equal(response.status(), 200);
  assert.match(response.headers()["content-type"] ?? "", /^application\/manifest\+json/);
  const manifest = (await response.json()) as {
    name?: string;
    short_name?: string;
    start_url?: string;
    scope?: string;
    display?: string;
    icons?: { src: string; sizes: string; type: string; purpose?: string }[];
  };
  assert.equal(manifest.name, "pi-kit demo");
  assert.ok(manifest.short_name);
  assert.equal(manifest.start_url, "/");
  assert.equal(manifest.scope, "/");
  assert.equal(manifest.display, "standalone");
  const icons = manifest.icons ?? [];
  for (const [size, purpose] of [
    [192, "any"],
    [512, "any"],
    [512, "maskable"],
  ] as const) {
    const icon = icons.find((i) => i.sizes === `${size}x${size}` && i.purpose === purpose);
    assert.ok(icon, `an icon of ${size} px for "${purpose}"`);
    const png = await page.request.get(new URL(icon.src, h.demo.url).href);
    assert.equal(png.status(), 200, icon.src);
    assert.equal(png.headers()["content-type"], "image/png", icon.src);
    // A PNG's width and height are the IHDR chunk's first two 32-bit words.
    const body = await png.body();
    assert.deepEqual([body.readUInt32BE(16), body.readUInt32BE(20)], [size, size], icon.src);
  }
  for (const icon of icons)
    assert.equal((await page.request.get(new URL(icon.src, h.demo.url).href)).status(), 200);
  await context.close();
});

test("offline, a reload shows the app from the service worker saying it is offline; back online it reconnects", async () => {
  const { context, page } = await openDemo("phone", "light");
  await controlled(page);
  // What the worker keeps: the page, its built files, the manifest and icons; no API or session data.
  const kept = await page.evaluate(async () => {
    const paths: string[] = [];
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys())
        paths.push(new URL(request.url).pathname);
    return paths;
  });
  const entry = await page.locator("script[type=module]").getAttribute("src");
  assert.ok(entry !== null && kept.includes(entry), `the page's entry ${entry} is kept`);
  assert.ok(kept.includes("/index.html"));
  const other = kept.filter(
    (path) =>
      !/^\/(index\.html|manifest\.webmanifest|assets\/[\w.-]+\.(js|css)|icons\/[\w.-]+\.(png|svg))$/.test(
        path,
      ),
  );
  assert.deepEqual(other, [], "nothing but the shell is cached");

  await context.setOffline(true);
  await page.getByText(OFFLINE).waitFor();
  const reloaded = await page.reload();
  assert.ok(reloaded?.fromServiceWorker(), "the page came from the service worker");
  assert.equal(reloaded?.status(), 200);
  await page.getByText(OFFLINE).waitFor();
  await page.locator("demo-app .topbar").waitFor();
  await chat(page).locator("textarea").waitFor();

  await context.setOffline(false);
  await connected(page);
  await page.getByText(OFFLINE).waitFor({ state: "detached" });
  await context.close();
});

for (const colorScheme of ["light", "dark"] as const) {
  for (const device of ["desktop", "phone"] as const) {
    test(`screenshot: offline, ${VIEWPORTS[device].width} px ${colorScheme}`, async () => {
      const { context, page } = await openDemo(device, colorScheme);
      await controlled(page);
      await context.setOffline(true);
      await page.reload();
      await page.getByText(OFFLINE).waitFor();
      // The server never described itself: the sidebar names no model (no empty badge).
      assert.equal(await page.locator("demo-app .model-badge").count(), 0);
      await h.screenshot(`offline-${device}-${colorScheme}`, page);
      await context.close();
    });
  }
}

test("on a touch phone every control of the header and the composer is at least 44 px", async () => {
  const { context, page } = await openDemo("phone", "light");
  assert.ok(await page.evaluate(() => matchMedia("(pointer: coarse)").matches));
  await chat(page).getByRole("button", { name: "Send", exact: true }).waitFor();
  const header = await targetsIn(page, "demo-app .topbar");
  const composer = await targetsIn(page, "pi-chat pi-composer");
  assert.ok(header.length >= 6, `header controls: ${JSON.stringify(header)}`);
  assert.ok(composer.length >= 2, `composer buttons: ${JSON.stringify(composer)}`);
  // During a run the composer has Stop, Steer and Follow up instead of Send (long enough to be
  // still streaming however loaded the machine is).
  await chat(page).locator("textarea").fill("[[slow 150ms x 400]]");
  await chat(page).locator("textarea").press("Enter");
  await chat(page).getByRole("button", { name: "Stop", exact: true }).waitFor();
  const running = await targetsIn(page, "pi-chat pi-composer");
  assert.ok(running.length >= 4, `composer buttons during a run: ${JSON.stringify(running)}`);
  const small = [...header, ...composer, ...running].filter((t) => t.width < 44 || t.height < 44);
  assert.deepEqual(small, [], "targets under 44 px");
  await chat(page).getByRole("button", { name: "Stop", exact: true }).click();
  await chat(page).getByRole("button", { name: "Send", exact: true }).waitFor();
  await context.close();
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`390 px ${colorScheme}: the composer stays above the on-screen keyboard`, async () => {
    const { context, page } = await openDemo("phone", colorScheme);
    const composer = chat(page).locator("pi-composer");
    await composer.locator("textarea").fill("Does this stay above the keyboard?");
    const bottom = () => composer.evaluate((el) => el.getBoundingClientRect().bottom);
    assert.ok((await bottom()) > 544, "without a keyboard the composer is at the screen's foot");
    // Headless Chromium opens no on-screen keyboard. A keyboard shrinks the visual viewport and
    // fires its resize event: the page's own visualViewport gets the height a 300 px keyboard
    // leaves (only that getter is shadowed) and its resize event; the layout is the browser's.
    const keyboardTop = await page.evaluate(() => {
      const top = innerHeight - 300;
      const viewport = visualViewport as VisualViewport;
      Object.defineProperty(viewport, "height", { configurable: true, value: top });
      viewport.dispatchEvent(new Event("resize"));
      return top;
    });
    await page.waitForFunction((top) => {
      const composer = document
        .querySelector("demo-app")
        ?.shadowRoot?.querySelector("pi-chat")
        ?.shadowRoot?.querySelector("pi-composer");
      return composer !== undefined && composer !== null
        ? composer.getBoundingClientRect().bottom <= top
        : false;
    }, keyboardTop);
    const send = await chat(page).getByRole("button", { name: "Send", exact: true }).boundingBox();
    assert.ok(send !== null && send.y + send.height <= keyboardTop, "Send is above the keyboard");
    await page.screenshot({
      path: new URL(`composer-keyboard-phone-${colorScheme}.png`, shots).pathname,
      clip: { x: 0, y: 0, width: VIEWPORTS.phone.width, height: keyboardTop },
    });
    // The keyboard closes: the composer goes back to the screen's foot.
    await page.evaluate(() => {
      const viewport = visualViewport as VisualViewport;
      Reflect.deleteProperty(viewport, "height");
      viewport.dispatchEvent(new Event("resize"));
    });
    await page.waitForFunction(
      (top) =>
        (document
          .querySelector("demo-app")
          ?.shadowRoot?.querySelector("pi-chat")
          ?.shadowRoot?.querySelector("pi-composer")
          ?.getBoundingClientRect().bottom ?? 0) > top,
      keyboardTop,
    );
    await context.close();
  });
}
