/**
 * A Vite plugin that writes the demo's service worker (`src/service-worker.ts`) to `dist/sw.js`
 * after a build, with that build's shell in front of it: every file the build wrote (hashed
 * assets, the page, the manifest and icons; not the plain-HTML example or source maps) and a
 * version hashed from their contents, so each new build installs a new worker and cache.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { type Plugin, transformWithOxc } from "vite";

/** The worker's file name in the built site. */
const SERVICE_WORKER = "sw.js";
const source = new URL("../src/service-worker.ts", import.meta.url);

/** What the shell leaves out: the worker itself, Vite's metadata, the plain-HTML example, maps. */
const LEFT_OUT = [/^sw\.js$/, /^\.vite\//, /^static\.html$/, /\.map$/];

/** Every file under `dir`, as site paths (`/assets/index-abc.js`), sorted. */
function siteFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join("/"))
    .filter((file) => !LEFT_OUT.some((pattern) => pattern.test(file)))
    .map((file) => `/${file}`)
    .sort();
}

/** The plugin: `apply: "build"`, so the dev server has no worker (and no stale cache). */
export function serviceWorker(): Plugin {
  let outDir = "dist";
  return {
    name: "pi-kit-demo-service-worker",
    apply: "build",
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = siteFiles(outDir);
      const hash = createHash("sha256");
      for (const file of files) hash.update(file).update(readFileSync(join(outDir, file)));
      const shell = { version: hash.digest("hex").slice(0, 16), files };
      const worker = await transformWithOxc(readFileSync(source, "utf8"), source.pathname, {});
      writeFileSync(
        join(outDir, SERVICE_WORKER),
        `const SHELL_BUILD = ${JSON.stringify(shell)};\n${worker.code}`,
      );
    },
  };
}
