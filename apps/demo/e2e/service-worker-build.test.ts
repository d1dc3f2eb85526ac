/**
 * The build's service worker (`scripts/service-worker-plugin.ts`): it lists exactly the files the
 * build wrote (not itself, Vite's metadata, the plain-HTML example or source maps), and its
 * version follows their contents, so a new build installs a new worker whose cache replaces the
 * old one, while an unchanged build keeps the worker browsers have.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import type { ResolvedConfig } from "vite";
import { serviceWorker } from "../scripts/service-worker-plugin.ts";

/** Runs the plugin's hooks over `root/dist` as Vite does after a build; returns the shell. */
async function build(root: string): Promise<{ version: string; files: string[] }> {
  const plugin = serviceWorker();
  const config = { root, build: { outDir: "dist" } } as ResolvedConfig;
  await (plugin.configResolved as (config: ResolvedConfig) => void)(config);
  await (plugin.closeBundle as () => Promise<void>)();
  const worker = readFileSync(join(root, "dist", "sw.js"), "utf8");
  const shell = /^const SHELL_BUILD = (.*);$/m.exec(worker)?.[1];
  assert.ok(shell, "the worker starts with its shell");
  assert.match(worker, /addEventListener\("fetch"/, "the worker follows");
  assert.doesNotMatch(worker, /: (string|Request|Promise)\b/, "types are stripped");
  return JSON.parse(shell);
}

test("the worker lists the built files and is versioned by their contents", async () => {
  const root = mkdtempSync(join(tmpdir(), "pi-kit-demo-sw-"));
  try {
    const dist = join(root, "dist");
    mkdirSync(join(dist, "assets"), { recursive: true });
    mkdirSync(join(dist, ".vite"), { recursive: true });
    for (const [file, text] of Object.entries({
      "index.html": "<!doctype html>",
      "static.html": "<!doctype html>",
      "manifest.webmanifest": "{}",
      "assets/index-abc.js": "console.log(1)",
      "assets/index-abc.js.map": "{}",
      ".vite/manifest.json": "{}",
    }))
      writeFileSync(join(dist, file), text);

    const first = await build(root);
    assert.deepEqual(first.files, ["/assets/index-abc.js", "/index.html", "/manifest.webmanifest"]);
    assert.equal((await build(root)).version, first.version, "same files, same worker");

    writeFileSync(join(dist, "index.html"), "<!doctype html><title>new</title>");
    assert.notEqual((await build(root)).version, first.version, "a changed file, a new worker");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
