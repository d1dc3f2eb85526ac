#!/usr/bin/env node
// Bundles `src/bundle.ts` (elements, Lit, marked, the client) into one minified ES module for
// pages without a build step. One file, copied anywhere, works alone: without code splitting,
// esbuild inlines every dynamic `import()` (the highlighter and each of its grammars, the client
// for `src`) as a module that is still evaluated only when first imported.
import { build } from "esbuild";

const result = await build({
  entryPoints: { "pi-kit.bundle": new URL("../src/bundle.ts", import.meta.url).pathname },
  outdir: new URL("../dist/", import.meta.url).pathname,
  metafile: true,
  bundle: true,
  format: "esm",
  minify: true,
  target: "es2022",
  conditions: ["production"],
  legalComments: "none",
});

// Anything still imported at run time would 404 next to a copied bundle.
for (const [file, output] of Object.entries(result.metafile.outputs))
  if (output.imports.length > 0) {
    console.error(`${file} still imports ${output.imports.map((i) => i.path).join(", ")}`);
    process.exit(1);
  }
