/**
 * Writes docs/elements/<tag>-{light,dark}.png for every visible element, with realistic content
 * (see screenshot-page.ts). Run: `npm run screenshots -w @pi-kit/elements`. Needs Chromium
 * (`/usr/bin/chromium`, or CHROME_PATH).
 */
import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { openPage } from "../../../test-support/browser-page.ts";
import { RENDER_SCENES } from "./render-scenes.ts";
import { UI_SCENES } from "./ui-scenes.ts";

// <pi-provider> renders nothing of its own, so it has no picture.
const TAGS = [
  "pi-chat",
  "pi-message-list",
  "pi-message",
  "pi-tool-call",
  "pi-markdown",
  "pi-composer",
  "pi-slash-menu",
  "pi-dialog",
  "pi-toasts",
  "pi-model-picker",
  "pi-thinking-picker",
  "pi-session-stats",
  "pi-fork-picker",
  "pi-session-tree",
  "pi-session-list",
  // The renderers' scenes and the chat's states, at 1280 and 390 px.
  ...RENDER_SCENES,
  ...UI_SCENES,
];

const root = new URL("../../../", import.meta.url);
const only = process.argv.slice(2);
const fixtures: Record<string, string> = {};
for (const name of ["thinking", "bash-tool", "bash-command", "extension-dialog"])
  fixtures[name] = await readFile(
    new URL(`packages/protocol/test/fixtures/pi-1.6.0/${name}.jsonl`, root),
    "utf8",
  );
const out = new URL("docs/elements/", root);
mkdirSync(out, { recursive: true });
const { page, close } = await openPage(new URL("./screenshot-page.ts", import.meta.url).pathname);
try {
  for (const tag of TAGS.filter((t) => only.length === 0 || only.includes(t))) {
    const widths = [...RENDER_SCENES, ...UI_SCENES].includes(tag) ? [1280, 390] : [undefined];
    for (const [theme, width] of (["light", "dark"] as const).flatMap((t) =>
      widths.map((w) => [t, w] as const),
    )) {
      if (width !== undefined) await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: theme });
      await page.evaluate(
        ([t, th, f]) =>
          (
            window as unknown as {
              show(t: string, th: string, f: Record<string, string>): Promise<void>;
            }
          ).show(t, th, f),
        [tag, theme, fixtures] as const,
      );
      const path = new URL(`${tag}-${theme}${width ? `-${width}` : ""}.png`, out).pathname;
      await page.locator("#stage").screenshot({ path, animations: "disabled" });
      console.log(`wrote ${path}`);
    }
  }
} finally {
  await close();
}
