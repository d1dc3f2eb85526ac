/** Test support shared by the benchmarks and the elements' screenshots: bundles a page entry with esbuild and opens it in Chromium. */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { type Browser, chromium, type Page } from "playwright-core";
import { chromiumArgs, chromiumPath } from "../scripts/chromium.mjs";

/** Bundles `entry` (TypeScript) for the browser, minified, resolving workspace packages to their sources. */
export async function bundle(entry: string, minify = true): Promise<{ code: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), "pi-elements-bench-"));
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify,
    format: "esm",
    platform: "browser",
    target: "es2022",
    splitting: true,
    outdir: dir,
    write: true,
    metafile: true,
    conditions: ["@pi-kit/source", "production", "browser"],
    logLevel: "error",
  });
  const out = Object.keys(result.metafile.outputs).find(
    (f) => result.metafile.outputs[f]?.entryPoint,
  );
  if (out === undefined) throw new Error("no entry output");
  return { code: out, dir };
}

/** Opens a page that loads the bundled entry from a file URL. */
export async function openPage(
  entry: string,
): Promise<{ browser: Browser; page: Page; url: string; close(): Promise<void> }> {
  const { dir } = await bundle(entry, true);
  const name = entry.split("/").at(-1)?.replace(/\.ts$/, ".js") ?? "entry.js";
  writeFileSync(
    join(dir, "index.html"),
    `<!doctype html><html lang="en"><body style="margin:0"><script type="module" src="./${name}"></script></body></html>`,
  );
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [...chromiumArgs],
  });
  const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  page.on("pageerror", (error) => console.error("page error:", error));
  // Module scripts do not load from file: URLs; serve the bundle over loopback HTTP.
  const server: Server = createServer((request, response) => {
    const file = join(
      dir,
      (request.url ?? "/").split("?")[0]?.replace(/^\/$/, "/index.html") ?? "",
    );
    try {
      const body = readFileSync(file);
      response.writeHead(200, {
        "content-type": file.endsWith(".js") ? "text/javascript" : "text/html",
      });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/`;
  await page.goto(url);
  await page.waitForFunction(() => (window as { benchReady?: boolean }).benchReady === true);
  return {
    browser,
    page,
    url,
    close: async () => {
      await browser.close();
      server.close();
    },
  };
}
