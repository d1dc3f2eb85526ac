/**
 * Markdown to Lit templates, safe by construction: marked's lexer (GFM) turns the source into
 * tokens and each token becomes a Lit template, so every piece of model output reaches the DOM as
 * text or as an attribute value, never as markup. No HTML string is built or parsed, so there is
 * nothing to sanitize. Raw HTML in the source is shown as text, images become links (no remote
 * loads from model output, which could leak data through the URL), links keep only http, https
 * and mailto URLs and open in a new tab without an opener or referrer.
 * Text is split into top-level blocks so a streaming message re-lexes only its unfinished tail.
 */
import { html, nothing, type TemplateResult } from "lit";
import { keyed } from "lit/directives/keyed.js";
import { getDefaults, Lexer, type MarkedOptions, type Token, type Tokens } from "marked";

/** URLs kept on links; everything else (javascript:, data:, vbscript:, relative) is dropped. */
export const SAFE_URL = /^(?:https?:|mailto:)/i;

// Fresh defaults, so a page configuring its own copy of marked globally cannot change ours.
const OPTIONS: MarkedOptions = { ...getDefaults(), gfm: true };

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

/** The URL of a link or image if it may be followed, else `undefined`. */
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
      // Never loaded: shown as a link to the image.
      const href = safeHref(t.href);
      const label = t.text || t.href;
      if (href === undefined) return label;
      return html`<a href=${href} data-image target="_blank" rel="noopener noreferrer nofollow">${label}</a>`;
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

function block(token: Token): unknown {
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
    case "code": {
      // The highlighter later replaces the children of `code`, so Lit keeps no part inside it
      // (`.textContent`), and another text gets a fresh element (`keyed`), highlighted anew.
      const language = /^[\w+#.-]*/.exec(t.lang ?? "")?.[0].toLowerCase() || nothing;
      return keyed(
        t.raw,
        html`<pre part="code-block"><code data-lang=${language} .textContent=${t.text}></code></pre>`,
      );
    }
    case "blockquote":
      return html`<blockquote>${blocks(t.tokens)}</blockquote>`;
    case "list": {
      const items = (token as Tokens.List).items.map(
        (item) => html`<li>${blocks(item.tokens)}</li>`,
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
    default:
      // Raw HTML (`html`) and anything unknown: the source, as text.
      return html`<p>${t.raw}</p>`;
  }
}

function blocks(tokens: Token[] | undefined): unknown[] {
  return tokens?.map(block) ?? [];
}

/** Renders markdown to a Lit template (no caching; see {@link MarkdownBlocks} for streams). */
export function renderMarkdown(source: string): unknown {
  try {
    return blocks(Lexer.lex(source, OPTIONS));
  } catch {
    return html`<p>${source}</p>`;
  }
}

// Finished blocks recur when windowing re-creates message views; keep their templates a while.
const CACHE_LIMIT = 600;
const blockCache = new Map<string, unknown>();

/** Renders one finished block, memoised by source text (bounded, least recently used evicted). */
export function renderBlock(source: string): unknown {
  const hit = blockCache.get(source);
  if (hit !== undefined) {
    blockCache.delete(source);
    blockCache.set(source, hit);
    return hit;
  }
  const rendered = renderMarkdown(source);
  blockCache.set(source, rendered);
  if (blockCache.size > CACHE_LIMIT) {
    const oldest = blockCache.keys().next().value;
    if (oldest !== undefined) blockCache.delete(oldest);
  }
  return rendered;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Splits a growing markdown text into finished top-level blocks and an unfinished tail. A block
 * ends at a blank line outside a code fence that is followed by an unindented line (so loose list
 * items and indented code stay together). When the text only grew, scanning resumes at the tail:
 * each delta costs O(tail), never O(message) or O(history).
 */
export class MarkdownBlocks {
  /** Sources of the finished blocks, in order. */
  readonly finished: string[] = [];
  #text = "";
  #tailStart = 0;

  /** The unfinished tail (everything after the last finished block). */
  get tail(): string {
    return this.#text.slice(this.#tailStart);
  }

  /** Feeds the whole current text; returns true when finished blocks were reset (text was replaced). */
  update(text: string): boolean {
    let reset = false;
    if (!text.startsWith(this.#text)) {
      this.finished.length = 0;
      this.#tailStart = 0;
      reset = true;
    }
    this.#text = text;
    this.#scan();
    return reset;
  }

  #scan(): void {
    const text = this.#text;
    let lineStart = this.#tailStart;
    let fence: string | undefined;
    let sawBlank = false;
    let blockStart = this.#tailStart;
    while (lineStart < text.length) {
      const newline = text.indexOf("\n", lineStart);
      const line = text.slice(lineStart, newline === -1 ? undefined : newline);
      // The last line may still be growing: it can only start a block, never open a fence.
      if (newline === -1) {
        if (fence === undefined && sawBlank && /^\S/.test(line) && lineStart > blockStart) {
          this.finished.push(text.slice(blockStart, lineStart));
          this.#tailStart = lineStart;
        }
        break;
      }
      if (fence !== undefined) {
        const close = FENCE.exec(line);
        const marker = close?.[1];
        if (
          marker !== undefined &&
          marker[0] === fence[0] &&
          marker.length >= fence.length &&
          line.trim() === marker
        )
          fence = undefined;
      } else if (line.trim() === "") {
        sawBlank = true;
      } else {
        if (sawBlank && !/^\s/.test(line) && lineStart > blockStart) {
          this.finished.push(text.slice(blockStart, lineStart));
          blockStart = lineStart;
          this.#tailStart = lineStart;
        }
        sawBlank = false;
        const open = FENCE.exec(line);
        if (open?.[1] !== undefined) fence = open[1];
      }
      lineStart = newline + 1;
    }
  }
}
