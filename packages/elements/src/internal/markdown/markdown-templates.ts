/**
 * Markdown to Lit templates, safe by construction, loaded with the parser (see markdown-loader.ts):
 * the bounded lexer (markdown-lexer.ts) turns the source into tokens and each token becomes a Lit
 * template, so every piece of model output reaches the DOM as text or as an attribute value, never
 * as markup. No HTML string is built or parsed, so there is nothing to sanitize. Raw HTML in the
 * source is shown as text, links keep only http, https and mailto URLs and open in a new tab
 * without an opener or referrer, and images become placeholders that load nothing by themselves
 * (see remote-images.ts).
 */
import { html, nothing, type TemplateResult } from "lit";
import { guard } from "lit/directives/guard.js";
import { keyed } from "lit/directives/keyed.js";
import type { Token, Tokens } from "marked";
import type { PiStrings } from "../i18n/i18n.ts";
import { lexMarkdown } from "./markdown-lexer.ts";
import { SAFE_URL } from "./safe-url.ts";

export { markdownTemplateStyles } from "./markdown-content.styles.ts";

export { loadCompletion } from "./markdown-lexer.ts";

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
};
const ENTITY = /&(?:#(\d{1,7})|#x([\da-f]{1,6})|(amp|lt|gt|quot|apos|nbsp));/gi;

/** Decodes the character references marked leaves in text (numeric and the common named ones). */
function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(ENTITY, (match, dec?: string, hex?: string, name?: string) => {
    if (name !== undefined) return NAMED_ENTITIES[name.toLowerCase()] ?? match;
    const code = dec !== undefined ? Number(dec) : Number.parseInt(hex ?? "", 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
  });
}

/** The URL of a link if it may be followed, else `undefined`. */
function safeHref(href: string): string | undefined {
  const url = href.trim();
  return SAFE_URL.test(url) ? url : undefined;
}

function inlines(tokens: Token[] | undefined): unknown[] {
  return tokens?.map(inline) ?? [];
}

function inline(token: Token): unknown {
  const t = token as Tokens.Generic;
  switch (token.type) {
    case "text":
      return t.tokens ? inlines(t.tokens) : decodeEntities(t.text);
    case "chunk":
      // A piece of a long paragraph: Lit skips it once finished, and as a block of its own it is
      // laid out once (the open piece of a streamed paragraph does not relayout the finished ones).
      return guard([t.raw], () => html`<span class="piece">${inlines(t.tokens)}</span>`);
    case "escape":
      return t.text;
    case "strong":
      return html`<strong>${inlines(t.tokens)}</strong>`;
    case "em":
      return html`<em>${inlines(t.tokens)}</em>`;
    case "del":
      return html`<del>${inlines(t.tokens)}</del>`;
    case "codespan":
      return html`<code>${t.text}</code>`;
    case "br":
      return html`<br />`;
    case "checkbox":
      // A task list item's box, as a character (the item is not editable).
      return t.checked ? "\u2611 " : "\u2610 ";
    case "link": {
      const href = safeHref(t.href);
      if (href === undefined) return inlines(t.tokens);
      return html`<a href=${href} title=${t.title || nothing} target="_blank" rel="noopener noreferrer nofollow">${inlines(t.tokens)}</a>`;
    }
    case "image": {
      const href = String(t.href).trim();
      // An image still being streamed (completed by remend): nothing yet.
      if (href.startsWith("streamdown:")) return nothing;
      // Remote images wait for a click (or the host allowlist); anything else is its label.
      if (!/^https?:/i.test(href)) return t.text || href;
      return html`<span class="image" part="remote-image" data-src=${href} data-alt=${t.text}></span>`;
    }
    default:
      // Raw HTML (`html`) and anything unknown: the source, as text.
      return t.raw;
  }
}

function heading(depth: number, content: unknown[]): TemplateResult {
  switch (depth) {
    case 1:
      return html`<h1>${content}</h1>`;
    case 2:
      return html`<h2>${content}</h2>`;
    case 3:
      return html`<h3>${content}</h3>`;
    case 4:
      return html`<h4>${content}</h4>`;
    case 5:
      return html`<h5>${content}</h5>`;
    default:
      return html`<h6>${content}</h6>`;
  }
}

function tableCell(cell: Tokens.TableCell, header: boolean): TemplateResult {
  const align = cell.align ?? nothing;
  const content = inlines(cell.tokens);
  return header
    ? html`<th align=${align}>${content}</th>`
    : html`<td align=${align}>${content}</td>`;
}

function codeBlock(t: Tokens.Generic, s: PiStrings): unknown {
  const language = /^[\w+#.-]*/.exec(t.lang ?? "")?.[0].toLowerCase() ?? "";
  // The highlighter later replaces the children of `code`, so Lit keeps no part inside it
  // (`.textContent`), and another text gets a fresh element (`keyed`), highlighted anew.
  return keyed(
    t.raw,
    html`<div class="code"><div class="code-head" part="code-header"><span class="lang">${language}</span><button
      type="button" class="copy" part="copy-button" data-copy="code" aria-label=${s.copyCode} data-done=${s.copied}
    ><span>${s.copy}</span></button></div><pre part="code-block"><code data-lang=${language || nothing} .textContent=${t.text}></code></pre></div>`,
  );
}

function block(token: Token, s: PiStrings): unknown {
  const t = token as Tokens.Generic;
  switch (token.type) {
    case "space":
    case "def":
      return nothing;
    case "paragraph":
      return html`<p>${inlines(t.tokens)}</p>`;
    case "text":
    case "checkbox":
      // Content of a tight list item: inline, without a paragraph.
      return inline(token);
    case "heading":
      return heading(t.depth, inlines(t.tokens));
    case "code":
      return codeBlock(t, s);
    case "blockquote":
      return html`<blockquote>${blocks(t.tokens, s)}</blockquote>`;
    case "list": {
      const items = (token as Tokens.List).items.map(
        (item) => html`<li>${blocks(item.tokens, s)}</li>`,
      );
      if (!t.ordered) return html`<ul>${items}</ul>`;
      return html`<ol start=${t.start === 1 || t.start === "" ? nothing : t.start}>${items}</ol>`;
    }
    case "table": {
      const table = token as Tokens.Table;
      return html`<table><thead><tr>${table.header.map((cell) => tableCell(cell, true))}</tr></thead><tbody>${table.rows.map(
        (row) => html`<tr>${row.map((cell) => tableCell(cell, false))}</tr>`,
      )}</tbody></table>`;
    }
    case "hr":
      return html`<hr />`;
    case "tooDeep":
      // Nested past the lexer's limit: the rest is shown as its source.
      return html`<div class="too-deep">${t.raw}</div>`;
    default:
      // Raw HTML (`html`) and anything unknown: the source, as text.
      return html`<p>${t.raw}</p>`;
  }
}

function blocks(tokens: Token[] | undefined, s: PiStrings): unknown[] {
  return tokens?.map((token) => block(token, s)) ?? [];
}

/** Renders markdown to a Lit template (no caching); `completeEnd` completes unfinished syntax. */
export function renderSource(source: string, strings: PiStrings, completeEnd = false): unknown {
  try {
    return blocks(lexMarkdown(source, completeEnd), strings);
  } catch {
    // The lexer is bounded, so this is a bug in marked: show the text rather than nothing.
    return html`<p class="too-deep">${source}</p>`;
  }
}

// Finished blocks recur when windowing re-creates message views; keep their templates a while,
// per set of strings (a language switch renders anew).
const CACHE_LIMIT = 600;
const blockCaches = new WeakMap<PiStrings, Map<string, unknown>>();

/** Renders one finished block, memoised by source text (bounded, least recently used evicted). */
export function renderFinishedBlock(source: string, strings: PiStrings): unknown {
  let cache = blockCaches.get(strings);
  if (cache === undefined) {
    cache = new Map();
    blockCaches.set(strings, cache);
  }
  const hit = cache.get(source);
  if (hit !== undefined) {
    cache.delete(source);
    cache.set(source, hit);
    return hit;
  }
  const rendered = renderSource(source, strings);
  cache.set(source, rendered);
  if (cache.size > CACHE_LIMIT) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return rendered;
}
