/**
 * The built site in Chromium, light and dark: every live example upgrades its elements and draws
 * something, with no console error or uncaught page error, and axe finds no serious or critical
 * violation on any page that has examples. Screenshots for docs/site/ when SITE_SHOTS is set.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { after, before, test } from "node:test";
import type AxeCore from "axe-core";
import { type Browser, chromium, type Page } from "playwright-core";
import { chromiumArgs, chromiumPath } from "../../../scripts/chromium.mjs";
import { dist, type StaticServer, serveStatic } from "./static-server.ts";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core"), "utf8");

/** Every built page (its path under the site) whose HTML holds a live example. */
function pagesWithExamples(dir = dist): string[] {
  const pages: string[] = [];
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) pages.push(...pagesWithExamples(file));
    else if (name === "index.html" && readFileSync(file, "utf8").includes("data-example=")) {
      pages.push(`/${relative(dist, dir)}/`.replace(/\/+/g, "/"));
    }
  }
  return pages.sort();
}

let server: StaticServer;
let browser: Browser;

before(async () => {
  server = await serveStatic();
  browser = await chromium.launch({ executablePath: chromiumPath(), args: [...chromiumArgs] });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens `path` in `scheme`, with every console error and page error collected. */
async function open(
  path: string,
  scheme: "light" | "dark",
): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({
    colorScheme: scheme,
    viewport: { width: 1280, height: 900 },
  });
  // Starlight keeps the reader's choice in localStorage; start each page in the scheme asked for.
  await context.addInitScript((theme) => localStorage.setItem("starlight-theme", theme), scheme);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  page.on("response", (r) => {
    if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  page.on("pageerror", (e) => errors.push(`page error: ${e.stack ?? e.message}`));
  await page.goto(server.url + path, { waitUntil: "domcontentloaded" });
  return { page, errors };
}

/** Text each example must show (shadow roots included) once it has played. */
const SHOWS: Record<string, string> = {
  "chat-thinking": "Option B.",
  "tool-diff": "credentials",
  "dialog-waiting": "Pick one",
  "chat-themed": "LoginError",
  "session-list": "Fix the login cookie",
  "session-tree": "Moved the session to a header token",
  changes: "Add a test for the refused login",
  markdown: "Try me",
  "model-picker": "Claude Sonnet 4.5",
  toasts: "Tests passed (128)",
  "fork-picker": "Now add a test for the refused login.",
};

/** Scrolls to each example, waits until it is ready (or failed), and says what each drew. */
async function runExamples(
  page: Page,
): Promise<Array<{ name: string; state: string; drawn: boolean; shows?: boolean }>> {
  const figures = page.locator("figure[data-example]");
  const count = await figures.count();
  const results = [];
  for (let i = 0; i < count; i++) {
    const figure = figures.nth(i);
    await figure.scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (el) =>
        el?.getAttribute("data-state") === "ready" || el?.getAttribute("data-state") === "failed",
      await figure.elementHandle(),
    );
    const name = (await figure.getAttribute("data-example")) ?? "";
    const expected = SHOWS[name];
    const shows =
      expected === undefined
        ? undefined
        : await page
            .waitForFunction(
              ([el, text]) => {
                // Iterative, not a named helper: the test's transpiler would rename a function.
                const stack: Node[] = el ? [el as Node] : [];
                let all = "";
                while (stack.length > 0) {
                  const node = stack.pop() as Node;
                  if (node.nodeType === Node.TEXT_NODE) all += `${node.textContent ?? ""} `;
                  stack.push(...[...node.childNodes].reverse());
                  stack.push(...[...((node as Element).shadowRoot?.childNodes ?? [])].reverse());
                }
                return all.includes(text as string);
              },
              [await figure.elementHandle(), expected] as const,
              { timeout: 15_000 },
            )
            .then(
              () => true,
              () => false,
            );
    results.push(
      await figure
        .evaluate((el) => {
          const stage = el.querySelector("[data-stage]");
          const elements = [...(stage?.querySelectorAll("*") ?? [])].filter((e) =>
            e.localName.startsWith("pi-"),
          );
          // Upgraded (defined, with a shadow root) and drawn (its shadow root shows something).
          const drawn =
            elements.length > 0 &&
            elements.every(
              (e) => customElements.get(e.localName) !== undefined && e.shadowRoot !== null,
            ) &&
            elements.some(
              (e) =>
                (e.shadowRoot?.textContent ?? "").trim().length > 0 ||
                e.getBoundingClientRect().height > 20,
            );
          return {
            name: (el as HTMLElement).dataset.example ?? "",
            state: (el as HTMLElement).dataset.state ?? "",
            drawn,
          };
        })
        .then((result) => (shows === undefined ? result : { ...result, shows })),
    );
  }
  return results;
}

/** axe's serious and critical violations on the page, shadow roots included. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const { axe } = window as unknown as { axe: typeof AxeCore };
    // The page's content and its examples; Starlight's own header and sidebar are its concern.
    const result = await axe.run(
      { include: [["main"]] },
      {
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
      },
    );
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`);
  });
}

const pages = pagesWithExamples();
const THEMING = ["theming", "chat-themed"];
/** Pages checked in light and dark with axe over their whole content: between them, every example. */
const FULL = ["/", "/live-examples/", "/guides/theming/", "/elements/pi-chat/"];

test("the live examples page holds every example", () => {
  const html = readFileSync(join(dist, "live-examples", "index.html"), "utf8");
  const onPages = new Set(
    pages.flatMap((path) =>
      [
        ...readFileSync(join(dist, path, "index.html"), "utf8").matchAll(/data-example="([^"]+)"/g),
      ].map((m) => m[1]),
    ),
  );
  // The theming guide's two examples are about tokens, not elements; they stay on that page.
  const missing = [...onPages].filter(
    (name) => !THEMING.includes(name ?? "") && !html.includes(`data-example="${name}"`),
  );
  assert.ok(pages.length >= 18, `only ${pages.length} pages with examples: ${pages.join(" ")}`);
  assert.deepEqual(missing, []);
});

/** What is wrong on `path` in `scheme`: examples not ready or not drawn, errors, axe findings. */
async function problemsOf(path: string, scheme: "light" | "dark", axe: boolean): Promise<string[]> {
  const problems: string[] = [];
  const { page, errors } = await open(path, scheme);
  for (const result of await runExamples(page)) {
    if (result.state !== "ready" || !result.drawn || result.shows === false)
      problems.push(`${path} ${result.name}: ${JSON.stringify(result)}`);
  }
  if (axe) for (const v of await seriousViolations(page)) problems.push(`${path} axe ${v}`);
  problems.push(...errors.map((e) => `${path} ${e}`));
  await page.context().close();
  return problems;
}

for (const scheme of ["light", "dark"] as const) {
  test(`every live example runs, with no error and no serious axe finding, ${scheme}`, async () => {
    const problems: string[] = [];
    for (const path of FULL) problems.push(...(await problemsOf(path, scheme, true)));
    assert.deepEqual(problems, []);
  });
}

test("every element page's example runs with no error", async () => {
  const problems: string[] = [];
  for (const path of pages.filter((p) => !FULL.includes(p)))
    problems.push(...(await problemsOf(path, "light", false)));
  assert.deepEqual(problems, []);
});

test("Edit opens the example's code, loaded only then, and Run shows the edited code running", async () => {
  const { page, errors } = await open("/live-examples/", "light");
  const figure = page.locator('figure[data-example="markdown"]');
  await figure.scrollIntoViewIfNeeded();
  await page.waitForFunction(
    (el) => el?.getAttribute("data-state") === "ready",
    await figure.elementHandle(),
  );
  const loaded = () =>
    page.evaluate(() =>
      performance.getEntriesByType("resource").some((r) => /\/editor\.[^/]*\.js$/.test(r.name)),
    );
  assert.equal(await loaded(), false, "the editor loaded before Edit was pressed");
  await figure.getByRole("button", { name: "Edit" }).click();
  const code = figure.getByLabel("Code (JavaScript)");
  await code.waitFor();
  assert.equal(await loaded(), true);
  await code.fill((await code.inputValue()).replace("## Try me", "## Edited in the docs"));
  await figure.getByRole("button", { name: "Run" }).click();
  await page.waitForFunction(
    (el) =>
      el?.querySelector("pi-markdown")?.shadowRoot?.textContent?.includes("Edited in the docs"),
    await figure.elementHandle(),
  );
  // A mistake in the code is shown under it, not thrown into the page.
  await code.fill("stage.append(undefinedThing);");
  await figure.getByRole("button", { name: "Run" }).click();
  await figure.getByRole("alert").filter({ hasText: "ReferenceError" }).waitFor();
  assert.deepEqual(errors, []);
  await page.context().close();
});
