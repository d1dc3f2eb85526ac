/**
 * Bundle size of a page with <pi-chat>, <pi-dialog>, the WebSocket transport and Lit: esbuild,
 * minified, gzipped with node:zlib. Counts what loads initially (the entry chunk and its static
 * imports, markdown included); lazily loaded code (the syntax highlighter and its grammars, loaded
 * only when a code block appears) is reported separately. The same figure for a page registering
 * every element through `@pi-kit/elements/define` is printed for information.
 */
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { report } from "../lib/measure.ts";

/** Gzipped KiB of the initial chunks and of the lazy ones for one page entry. */
async function measure(page: string): Promise<{ initial: number; lazy: number }> {
  const entryPoint = new URL(page, import.meta.url).pathname;
  const result = await build({
    entryPoints: [entryPoint],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    splitting: true,
    outdir: `/tmp/pi-elements-bundle/${page.replace(/^\.\/|\.ts$/g, "")}`,
    metafile: true,
    conditions: ["@pi-kit/source", "production", "browser"],
    logLevel: "error",
  });
  const outputs = result.metafile.outputs;
  const entry = Object.keys(outputs).find((f) => outputs[f]?.entryPoint?.endsWith(page.slice(2)));
  if (entry === undefined) throw new Error(`no entry chunk for ${page}`);
  const initial = new Set<string>();
  const visit = (file: string): void => {
    if (initial.has(file)) return;
    initial.add(file);
    for (const imp of outputs[file]?.imports ?? [])
      if (imp.kind === "import-statement") visit(imp.path);
  };
  visit(entry);
  const gz = (files: Iterable<string>): number => {
    let total = 0;
    for (const file of files) total += gzipSync(readFileSync(file), { level: 9 }).length;
    return total / 1024;
  };
  const lazy = Object.keys(outputs).filter((f) => f.endsWith(".js") && !initial.has(f));
  console.log(`${page}: initial chunks ${[...initial].join(", ")}; ${lazy.length} lazy chunks`);
  return { initial: gz(initial), lazy: gz(lazy) };
}

const page = await measure("./bundle-page.ts");
const all = await measure("./bundle-page-all.ts");
console.log(
  `lazy: +${page.lazy.toFixed(1)} KiB gzipped for the highlighter and all its grammars (a code block loads the core and one grammar)`,
);
console.log(
  `for information: every element (@pi-kit/elements/define): ${all.initial.toFixed(2)} KiB`,
);
report("bundle", [
  {
    name: "initial page (<pi-chat> with its dialog, toasts and slash menu, WebSocket, Lit), minified + gzipped",
    value: page.initial,
    op: "<=",
    target: 45,
    unit: " KiB",
  },
]);
