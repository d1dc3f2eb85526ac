/** Starts the demo server and a headless Debian Chromium for one end-to-end test file. */
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "node:test";
import { silentLogger } from "@pi-kit/bridge";
import type AxeCore from "axe-core";
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Locator,
  type Page,
} from "playwright-core";
import { chromiumArgs, chromiumPath } from "../../../scripts/chromium.mjs";
import {
  type DemoServer,
  type DemoServerOptions,
  distDir,
  startDemoServer,
} from "../server/demo-server.ts";
import { recordTraffic } from "./page-traffic.ts";

/** Where the end-to-end tests save screenshots of the main states. */
export const shots = new URL("../../../docs/demo/", import.meta.url);

/** Uncaught errors of every page the harness's browser opened, not yet reported. */
const pageErrors: string[] = [];

// Any uncaught error in a page fails the test during which it happened.
afterEach(() => {
  if (pageErrors.length > 0)
    throw new Error(`uncaught page errors:\n${pageErrors.splice(0).join("\n")}`);
});

/** Records the uncaught errors of every page of `context`. */
function watchErrors(context: BrowserContext): BrowserContext {
  context.on("weberror", (error) => {
    pageErrors.push(`${error.page()?.url() ?? "a page"}: ${error.error().stack ?? error.error()}`);
  });
  return context;
}

/** The screen sizes the demo is checked at: a laptop and a phone. */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/** Every view a feature is looked at in: desktop and phone, light and dark. */
export const EVERY_VIEW = [
  ["desktop", VIEWPORTS.desktop, "light"],
  ["desktop", VIEWPORTS.desktop, "dark"],
  ["phone", VIEWPORTS.phone, "light"],
  ["phone", VIEWPORTS.phone, "dark"],
] as const;

/** How a page is opened. */
export interface PageOptions {
  readonly viewport?: { readonly width: number; readonly height: number };
  readonly colorScheme?: "light" | "dark";
  /** The session to show (`?session=`); the page's default otherwise. */
  readonly session?: string;
  /** Opens the address as printed, with the token; `false` opens it bare. */
  readonly token?: boolean;
}

/** A running demo and a browser page on it. */
export interface Harness {
  /** The demo server now (a new one after {@link Harness.restart}). */
  readonly demo: DemoServer;
  readonly browser: Browser;
  readonly page: Page;
  /** Opens the demo the way a user does: the printed URL, token in the fragment. */
  open(): Promise<void>;
  /** A new page in a fresh browser profile (its own storage), opened as `options` say. */
  newPage(options?: PageOptions): Promise<Page>;
  /**
   * Stops the demo server and starts another on the same port and sessions dir, as a user's
   * Ctrl-C and `npm start` would: with the same token (kept in the state dir) unless given one.
   */
  restart(options?: { readonly token?: string }): Promise<void>;
  /** Saves a screenshot of `page` (the main page by default) under `docs/demo/`. */
  screenshot(name: string, page?: Page): Promise<void>;
  close(): Promise<void>;
}

/** The demo's address for a page: the printed one, or with a session, or without the token. */
export function addressOf(demo: DemoServer, options: PageOptions = {}): string {
  const query =
    options.session === undefined ? "" : `?session=${encodeURIComponent(options.session)}`;
  const fragment = options.token === false ? "" : `#token=${demo.token}`;
  return `${demo.url}/${query}${fragment}`;
}

/** Waits until the chat says it is connected to pi. */
export async function connected(page: Page): Promise<void> {
  await page.locator("pi-chat").getByText("Connected", { exact: true }).first().waitFor();
}

/** The page's `<pi-chat>`. */
export const chat = (page: Page): Locator => page.locator("pi-chat");
/** The page's history sidebar. */
export const sessionList = (page: Page): Locator => page.locator("pi-session-list");

/** Sends `text` once pi is idle, and waits for the scripted model's echo of it. */
export async function say(page: Page, text: string): Promise<void> {
  await chat(page).getByRole("button", { name: "Send", exact: true }).waitFor();
  const composer = page.locator("pi-chat textarea");
  await composer.fill(text);
  await composer.press("Enter");
  await chat(page).getByText(`Echo: ${text}`, { exact: true }).waitFor();
}

/** Opens the session panel (statistics, fork picker, tree). */
export async function openPanel(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Show session details" }).click();
  await page.locator("pi-session-tree").getByRole("treeitem").first().waitFor();
}

export { dialogShown } from "./page-traffic.ts";

/**
 * Runs a slash command the way a user does: typed out in full, Enter sends it from the menu. One
 * Enter only: a second would be typed at the command's dialog (which holds it back for a moment).
 */
export async function runCommand(page: Page, name: string): Promise<void> {
  const composer = page.locator("pi-chat textarea");
  await composer.fill(`/${name}`);
  await page
    .getByRole("option", { name: new RegExp(`^/?${name}`) })
    .first()
    .waitFor();
  await composer.press("Enter");
}

/** Waits until the sidebar (a drawer on a phone) has finished sliding, before a screenshot. */
export async function sidebarSettled(page: Page): Promise<void> {
  await page
    .locator("demo-app .sidebar")
    .evaluate((sidebar) => Promise.all(sidebar.getAnimations().map((a) => a.finished)));
}

/** Starts everything; the page is built by the package's test script before this runs. */
export async function startHarness(options: DemoServerOptions = {}): Promise<Harness> {
  const settings: DemoServerOptions = {
    staticRoot: distDir,
    logger: silentLogger,
    sessionsDir: mkdtempSync(join(tmpdir(), "pi-kit-demo-e2e-")),
    ...options,
  };
  let demo = await startDemoServer({ port: 0, ...settings });
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [...chromiumArgs],
  });
  // Every context (browser.newPage makes one too) reports its pages' uncaught errors.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = watchErrors(await newContext(options));
    context.on("page", recordTraffic);
    return context;
  };
  // Request interception (`page.route`) misses every request of a page that a service worker
  // controls, and the demo's worker claims its pages as soon as it is installed: the pages here
  // have none. The worker is tested in contexts of its own (installable.test.ts).
  const page = await browser.newPage({ viewport: VIEWPORTS.desktop, serviceWorkers: "block" });
  const contexts: BrowserContext[] = [];
  mkdirSync(shots, { recursive: true });
  return {
    get demo() {
      return demo;
    },
    browser,
    page,
    async open() {
      await page.goto(demo.openUrl);
      await connected(page);
    },
    async newPage(pageOptions = {}) {
      const context = await browser.newContext({
        viewport: pageOptions.viewport ?? VIEWPORTS.desktop,
        colorScheme: pageOptions.colorScheme ?? "light",
        serviceWorkers: "block",
      });
      contexts.push(context);
      const opened = await context.newPage();
      await opened.goto(addressOf(demo, pageOptions));
      return opened;
    },
    async restart(restartOptions = {}) {
      const port = Number(new URL(demo.url).port);
      const token = restartOptions.token ?? demo.token;
      await demo.close();
      demo = await startDemoServer({ ...settings, port, token });
    },
    async screenshot(name, shot = page) {
      await shot.screenshot({ path: new URL(`${name}.png`, shots).pathname });
    },
    async close() {
      await Promise.all(contexts.map((context) => context.close()));
      await browser.close();
      await demo.close();
      if (pageErrors.length > 0)
        throw new Error(`uncaught page errors:\n${pageErrors.splice(0).join("\n")}`);
    },
  };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core"), "utf8");

/** One axe finding: the rule, and the elements that break it. */
export interface AxeFinding {
  readonly id: string;
  readonly help: string;
  readonly targets: readonly string[];
}

/**
 * Runs axe-core (injected into the page) against the WCAG 2.1 A and AA rules, shadow roots
 * included, and returns what it found: the violations, and the text whose contrast axe could
 * not decide (treated as failing, so nothing unreadable slips through as "incomplete").
 */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const { axe } = window as unknown as { axe: typeof AxeCore };
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    });
    const undecided = result.incomplete.filter((rule) => rule.id === "color-contrast");
    return [...result.violations, ...undecided].map((rule) => ({
      id: rule.id,
      help: rule.help,
      targets: rule.nodes.map((node) => JSON.stringify(node.target)),
    }));
  });
}
