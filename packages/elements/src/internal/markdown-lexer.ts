/**
 * marked's GFM lexer, bounded so that no input can make it throw or take long: nesting deeper than
 * {@link MAX_DEPTH} (block quotes, lists, emphasis, links) is kept as plain text instead of being
 * parsed further, and the inline text of a long paragraph is parsed in pieces (see
 * {@link inlineChunks}) whose tokens are memoised, so a streamed paragraph parses each finished
 * piece once. The open end of a streamed text can be completed (`**bold` shown bold before its
 * closing `**` arrives) by remend, which loads lazily.
 */
import { getDefaults, Lexer, type MarkedOptions, type Token, type TokensList } from "marked";
import { inlineChunks } from "./inline-chunks.ts";

/** Deepest nesting parsed; anything nested deeper is kept as text. */
export const MAX_DEPTH = 16;

// Inline text with more formatted elements than this (per character, plus a floor) is kept as
// text: the DOM and layout of tens of thousands of tiny elements (`*a*a*a…`) would take seconds.
const ELEMENTS_PER_CHAR = 1 / 6;
const ELEMENTS_FLOOR = 32;

const ELEMENT_TYPES = new Set(["em", "strong", "del", "codespan", "link", "br", "image"]);

/** The elements inline tokens render to, counting until `limit` is passed. */
function elementCount(tokens: readonly Token[], limit: number): number {
  let count = 0;
  for (const token of tokens) {
    if (ELEMENT_TYPES.has(token.type)) count++;
    const children = (token as { tokens?: Token[] }).tokens;
    if (children !== undefined) count += elementCount(children, limit - count);
    if (count > limit) break;
  }
  return count;
}

/** Text nested deeper than {@link MAX_DEPTH}, kept as source. */
export interface TooDeepToken {
  readonly type: "tooDeep";
  readonly raw: string;
}

/** One piece of a long paragraph's inline text, with its own tokens. */
export interface ChunkToken {
  readonly type: "chunk";
  readonly raw: string;
  readonly tokens: Token[];
}

// Fresh defaults, so a page configuring its own copy of marked globally cannot change ours.
const OPTIONS: MarkedOptions = { ...getDefaults(), gfm: true };

// Inline tokens by source text, for text lexed without link definitions (which could change them).
const CACHE_LIMIT = 4000;
const inlineCache = new Map<string, Token[]>();

function cached(source: string): Token[] | undefined {
  const hit = inlineCache.get(source);
  if (hit !== undefined) {
    inlineCache.delete(source);
    inlineCache.set(source, hit);
  }
  return hit;
}

function remember(source: string, tokens: Token[]): void {
  inlineCache.set(source, tokens);
  if (inlineCache.size > CACHE_LIMIT) {
    const oldest = inlineCache.keys().next().value;
    if (oldest !== undefined) inlineCache.delete(oldest);
  }
}

type Complete = (text: string) => string;
let complete: Complete | undefined;
let loading: Promise<Complete | undefined> | undefined;

/** Loads the completion of unfinished syntax (remend) once; see markdown-loader.ts. */
export function loadCompletion(): Promise<unknown> {
  loading ??= import("remend")
    .then(({ default: remend }) => {
      // Only what completes the end of the text: the other fixes would also change finished text.
      complete = (text) =>
        remend(text, {
          katex: false,
          inlineKatex: false,
          setextHeadings: false,
          comparisonOperators: false,
          singleTilde: false,
          htmlTags: false,
        });
      return complete;
    })
    .catch(() => undefined);
  return loading;
}

class BoundedLexer extends Lexer {
  #depth = 0;
  #inlineDepth = 0;
  /** Set while lexing the last inline text of a streamed tail: its open end gets completed. */
  completeEnd = false;

  override blockTokens(src: string, tokens?: Token[], lastParagraphClipped?: boolean): Token[];
  override blockTokens(
    src: string,
    tokens?: TokensList,
    lastParagraphClipped?: boolean,
  ): TokensList;
  override blockTokens(src: string, tokens: Token[] = [], lastParagraphClipped = false): Token[] {
    if (this.#depth >= MAX_DEPTH) {
      tokens.push({ type: "tooDeep", raw: src } satisfies TooDeepToken as unknown as Token);
      return tokens;
    }
    this.#depth++;
    try {
      return super.blockTokens(src, tokens, lastParagraphClipped);
    } finally {
      this.#depth--;
    }
  }

  override inlineTokens(src: string, tokens: Token[] = []): Token[] {
    if (this.#inlineDepth === 0) return this.#topInline(src, tokens);
    if (this.#inlineDepth >= MAX_DEPTH) {
      tokens.push({ type: "text", raw: src, text: src });
      return tokens;
    }
    return this.#nested(src, tokens);
  }

  #nested(src: string, tokens: Token[]): Token[] {
    this.#inlineDepth++;
    try {
      return super.inlineTokens(src, tokens);
    } finally {
      this.#inlineDepth--;
    }
  }

  #lexChunk(chunk: string): Token[] {
    const lexed = this.#nested(chunk, []);
    const limit = chunk.length * ELEMENTS_PER_CHAR + ELEMENTS_FLOOR;
    return elementCount(lexed, limit) > limit ? [{ type: "text", raw: chunk, text: chunk }] : lexed;
  }

  #topInline(src: string, tokens: Token[]): Token[] {
    const chunks = inlineChunks(src);
    const memo = Object.keys(this.tokens.links).length === 0;
    const last = chunks.length - 1;
    for (const [index, chunk] of chunks.entries()) {
      let lexed: Token[] | undefined;
      if (index === last && this.completeEnd && complete !== undefined) {
        lexed = this.#lexChunk(complete(chunk));
      } else {
        lexed = memo ? cached(chunk) : undefined;
        if (lexed === undefined) {
          lexed = this.#lexChunk(chunk);
          if (memo) remember(chunk, lexed);
        }
      }
      if (last === 0) {
        // A loop, not push(...lexed): spreading a long array overflows the call stack.
        for (const token of lexed) tokens.push(token);
      } else {
        tokens.push({ type: "chunk", raw: chunk, tokens: lexed } satisfies ChunkToken as Token);
      }
    }
    return tokens;
  }
}

/**
 * Lexes markdown to marked tokens, plus {@link TooDeepToken} and {@link ChunkToken}. With
 * `completeEnd`, unfinished syntax at the end is completed as far as the completion has loaded
 * (call {@link loadCompletion} first).
 */
export function lexMarkdown(source: string, completeEnd = false): Token[] {
  const lexer = new BoundedLexer(OPTIONS);
  const tokens = lexer.blockTokens(source.replace(/\r\n?/g, "\n"), lexer.tokens);
  const queue = lexer.inlineQueue;
  const end = completeEnd ? source.trimEnd() : "";
  for (let i = 0; i < queue.length; i++) {
    const next = queue[i];
    if (next === undefined) continue;
    // Only text the source ends with is unfinished (not a paragraph before an open code fence).
    lexer.completeEnd = completeEnd && i === queue.length - 1 && end.endsWith(next.src.trimEnd());
    lexer.inlineTokens(next.src, next.tokens);
  }
  lexer.inlineQueue = [];
  return tokens;
}
