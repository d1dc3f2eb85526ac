#!/usr/bin/env node
// Bundles `src/bundle.ts` (elements, Lit, marked, the client) into one minified ES module for
// pages without a build step. The highlighter stays a lazy chunk beside it.
import { build } from "esbuild";

await build({
  entryPoints: { "pi-kit.bundle": new URL("../src/bundle.ts", import.meta.url).pathname },
  outdir: new URL("../dist/", import.meta.url).pathname,
  bundle: true,
  splitting: true,
  format: "esm",
  minify: true,
  target: "es2022",
  chunkNames: "chunks/[name]-[hash]",
  conditions: ["production"],
  legalComments: "none",
});
