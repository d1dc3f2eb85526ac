/**
 * Screenshots of every example after one answered prompt, at 1280 and 390 px wide, light and dark:
 * `npm run screenshots -w @pi-kit/examples-e2e [-- <dir>]` (default: a temp dir, printed).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { APPS, send, startSite } from "./test/harness.ts";

const dir = process.argv[2] ?? mkdtempSync(join(tmpdir(), "pi-kit-example-shots-"));
const site = await startSite();
try {
  for (const name of ["embed", ...APPS.map((app) => app.name)]) {
    const { page } = await site.open(name);
    await page.getByText("Connected", { exact: true }).first().waitFor();
    await send(page, `[[text Hello from ${name}:\\n\`\`\`js\\nconst answer = 42;\\n\`\`\`]]`);
    await page.locator("pi-chat [class^='shj-syn-']").first().waitFor();
    for (const scheme of ["light", "dark"] as const)
      for (const width of [1280, 390]) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
        await page.screenshot({ path: join(dir, `${name}-${width}-${scheme}.png`) });
      }
    await page.close();
  }
  console.log(`screenshots in ${dir}`);
} finally {
  await site.close();
}
