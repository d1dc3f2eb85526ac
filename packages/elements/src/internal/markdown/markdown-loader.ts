/**
 * Loads the markdown parser and templates (marked, the bounded lexer and markdown-templates.ts,
 * about 18 KiB gzipped) apart from the page's entry, so a chat page can show its composer and
 * connect before they have arrived. Elements that show markdown start the load as soon as they
 * connect, in parallel with the connection; until it is there, markdown is shown as plain text,
 * and re-rendered once it is.
 */
type Templates = typeof import("./markdown-templates.ts");

let templates: Templates | undefined;
let loading: Promise<Templates> | undefined;

/** Loads the parser once (again after a failed load); resolves when markdown renders fully. */
export async function loadMarkdown(): Promise<void> {
  await loadTemplates();
}

function loadTemplates(): Promise<Templates> {
  loading ??= import("./markdown-templates.ts").then(
    (module) => {
      templates = module;
      return module;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The templates, once loaded; `undefined` before (and starts the load). */
export function markdownTemplates(): Templates | undefined {
  if (templates === undefined) loadMarkdown().catch(() => undefined);
  return templates;
}

/**
 * Loads the parser and the completion of unfinished syntax of streamed text (remend); resolves
 * when both are there (or the completion failed to load: streamed text then shows as it is).
 */
export async function loadCompletion(): Promise<void> {
  await (await loadTemplates()).loadCompletion();
}
