/**
 * Loads the markdown parser (marked and the bounded lexer, about 16 KiB gzipped) apart from the
 * page's entry, so a chat page can show its composer and connect before it has arrived. Elements
 * that show markdown start the load as soon as they connect, in parallel with the connection;
 * until it is there, markdown is shown as plain text, and re-rendered once it is.
 */
import type { lexMarkdown } from "./markdown-lexer.ts";

type Lexer = typeof import("./markdown-lexer.ts");

let lexer: Lexer | undefined;
let loading: Promise<Lexer> | undefined;

/** Loads the parser once (again after a failed load); resolves when markdown renders fully. */
export async function loadMarkdown(): Promise<void> {
  await loadLexer();
}

function loadLexer(): Promise<Lexer> {
  loading ??= import("./markdown-lexer.ts").then(
    (module) => {
      lexer = module;
      return module;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The lexer, once loaded; `undefined` before (and starts the load). */
export function markdownLexer(): typeof lexMarkdown | undefined {
  if (lexer === undefined) loadMarkdown().catch(() => undefined);
  return lexer?.lexMarkdown;
}

/**
 * Loads the parser and the completion of unfinished syntax of streamed text (remend); resolves
 * when both are there (or the completion failed to load: streamed text then shows as it is).
 */
export async function loadCompletion(): Promise<void> {
  await (await loadLexer()).loadCompletion();
}
