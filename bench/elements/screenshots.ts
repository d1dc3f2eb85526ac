/** Writes docs/elements/pi-chat-{light,dark}.png from recorded pi 1.6.0 transcripts. */
import { mkdirSync, readFileSync } from "node:fs";
import { openPage } from "./browser.ts";

const root = new URL("../../", import.meta.url);
const fixture = (name: string): string =>
  readFileSync(new URL(`packages/protocol/test/fixtures/pi-1.6.0/${name}.jsonl`, root), "utf8");
const transcripts = ["thinking", "bash-tool", "bash-command"].map(fixture);
mkdirSync(new URL("docs/elements/", root), { recursive: true });
const { page, close } = await openPage(new URL("./screenshot-page.ts", import.meta.url).pathname);
try {
  for (const theme of ["light", "dark"]) {
    await page.evaluate(
      ([t, th]) =>
        (window as unknown as { show(t: string[], th: string): Promise<void> }).show(t, th),
      [transcripts, theme] as const,
    );
    const path = new URL(`docs/elements/pi-chat-${theme}.png`, root).pathname;
    await page.locator("pi-chat").screenshot({ path });
    console.log(`wrote ${path}`);
  }
} finally {
  await close();
}
