/**
 * Gzipped size of a page entry: esbuild, minified, as a page's bundler would build it, gzipped
 * with node:zlib. Counts what loads initially (the entry chunk and its static imports); lazily
 * loaded code apart: the markdown parser and templates (fetched as soon as a chat connects), and
 * what loads when first needed (the dialog's panel, the toasts' cards, tool views, highlighter and
 * grammars, diff, ANSI, completion of streamed markdown, a message's edit form and error box, the
 * chat's queue and watch bars).
 */
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

/**
 * The budget of the chat page's initial chunks, in KiB gzipped: the decided target was 64 (issue
 * 12); issue 26 item 6 leaves room to grow under it, at 60.
 */
export const CHAT_PAGE_BUDGET_KIB = 60;

/** Gzipped KiB of one page entry's chunks. */
export interface BundleSize {
  /** What loads first: the entry chunk and its static imports. */
  readonly initial: number;
  /** The markdown parser, fetched right after (while the client connects). */
  readonly parser: number;
  /** Everything loaded lazily, the parser included. */
  readonly lazy: number;
  /** How many chunks load first (each is gzipped on its own: splitting costs bytes). */
  readonly initialChunks: number;
  /** The source files that weigh most in the initial chunks: path and minified bytes, largest first. */
  readonly largest: readonly (readonly [string, number])[];
}

/** Gzipped KiB of the initial chunks, the markdown parser and all lazy chunks of a page of this folder. */
export async function measureBundle(page: string): Promise<BundleSize> {
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
  const closure = (start: string, skip: ReadonlySet<string> = new Set()): Set<string> => {
    const files = new Set<string>();
    const visit = (file: string): void => {
      if (files.has(file) || skip.has(file)) return;
      files.add(file);
      for (const imp of outputs[file]?.imports ?? [])
        if (imp.kind === "import-statement") visit(imp.path);
    };
    visit(start);
    return files;
  };
  const initial = closure(entry);
  const lexer = Object.keys(outputs).find((f) =>
    outputs[f]?.entryPoint?.endsWith("internal/markdown/markdown-templates.ts"),
  );
  const parser = lexer === undefined ? new Set<string>() : closure(lexer, initial);
  const gz = (files: Iterable<string>): number => {
    let total = 0;
    for (const file of files) total += gzipSync(readFileSync(file), { level: 9 }).length;
    return total / 1024;
  };
  const lazy = Object.keys(outputs).filter((f) => f.endsWith(".js") && !initial.has(f));
  const largest = [...initial]
    .flatMap((file) => Object.entries(outputs[file]?.inputs ?? {}))
    .map(
      ([path, input]) =>
        [path.replace(/^.*?(packages|node_modules)\//, ""), input.bytesInOutput] as const,
    )
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12);
  return {
    initial: gz(initial),
    parser: gz(parser),
    lazy: gz(lazy),
    initialChunks: initial.size,
    largest,
  };
}
