/**
 * Markdown as Lit templates, for a page's own use (`<pi-markdown>` renders incrementally): the
 * templates load with the parser (markdown-templates.ts, through markdown-loader.ts), apart from
 * the page's entry; until then the source shows as plain text.
 */
import { html } from "lit";
import type { PiStrings } from "../i18n/i18n.ts";
import { en } from "../i18n/locales/en.ts";
import { markdownTemplates } from "./markdown-loader.ts";

export { SAFE_URL } from "./safe-url.ts";

/** Options of {@link renderMarkdown}. */
export interface RenderOptions {
  /** UI strings (the code blocks' copy buttons). */
  readonly strings?: PiStrings;
  /** Complete unfinished syntax at the end (a streamed text; see `loadCompletion`). */
  readonly completeEnd?: boolean;
}

/**
 * Renders markdown to a Lit template (no caching; see `<pi-markdown>` for streams). Until the
 * parser has loaded (`loadMarkdown()`, which this starts), the source is shown as plain text.
 */
export function renderMarkdown(source: string, options: RenderOptions = {}): unknown {
  const templates = markdownTemplates();
  if (templates === undefined) return plainMarkdown(source);
  return templates.renderSource(source, options.strings ?? en, options.completeEnd);
}

/** Markdown source shown as it is, while the parser loads. */
export function plainMarkdown(source: string): unknown {
  return html`<p class="source">${source}</p>`;
}
