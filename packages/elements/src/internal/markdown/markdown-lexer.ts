/**
 * marked's GFM lexer, bounded so that no input can make it throw or take long: nesting deeper than
 * {@link MAX_DEPTH} (block quotes, lists, emphasis, links) is kept as plain text instead of being
 * parsed further, and the inline text of a long paragraph is parsed in pieces (see
 * {@link inlineChunks}) whose tokens are memoised, so a streamed paragraph parses each finished
 * piece once. The open end of a streamed text can be completed (`**bold` shown bold before its
 * closing `**` arrives) by remend, which loads lazily.
 */
import {
  getDefaults,
  Lexer,
  type MarkedOptions,
  type Token,
  Tokenizer,
  type Tokens,
  type TokensList,
} from "marked";
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

type Rules = Tokenizer["rules"];
// The part of GFM's inline rules that looks ahead for an email address (`name@host`).
const EMAIL_AHEAD = "(?=[a-zA-Z0-9.!#$%&'*+\\/=?_`{\\|}~-]+@)";
// The last inline rules derived, by the rules they derive from (marked's, shared by all lexers).
let noEmail: { from: Rules["inline"]; inline: Rules["inline"] } | undefined;

/**
 * GFM's rules for inline text without `@`, which can hold no email address: the text and URL
 * rules scan every run of letters, digits and `._+-` to its end for an `@`, at every position,
 * which makes text such as `_a_a_a…` quadratic to lex. Here those branches fail at once; all
 * else is unchanged, so the tokens are the same. The rules stay as they are if marked's change.
 */
export function rulesWithoutEmail(rules: Rules): Rules {
  if (noEmail?.from !== rules.inline) {
    const { text, url } = rules.inline;
    const textSource = text.source.split(EMAIL_AHEAD).join("(?!)");
    const urlSource = url.source
      .replace("^(?:mailto:", "^(?!)(?:mailto:")
      .replace("|^[A-Za-z0-9._+-]+(@)", "|^(?!)[A-Za-z0-9._+-]+(@)");
    const inline = {
      ...rules.inline,
      text: new RegExp(textSource, text.flags),
      url: new RegExp(urlSource, url.flags),
    };
    noEmail = { from: rules.inline, inline };
  }
  return { ...rules, inline: noEmail.inline };
}

// A text token's last character: an ASCII letter or digit.
const WORD_END = /[A-Za-z0-9]$/;
// Runs of `_` and ASCII letters or digits, up to where marked's text rule would stop anyway: a
// second `_`, anything but a letter or digit, or the start of `http`, `ftp://` or `_www.`.
const UNDERSCORE_WORDS =
  /(?:_(?![wW]{3}\.)(?:(?![hH][tT][tT][pP]|[fF][tT][pP]:\/\/)[A-Za-z0-9])+)+/y;

/**
 * marked's tokenizer, faster on text without `@` (lexed with {@link rulesWithoutEmail}): a text
 * token that ends in a letter or digit goes on across each `_` followed by one (`snake_case`,
 * `_a_a_a…`). Such an underscore can neither open nor close emphasis, nor (without `@`) start a
 * link, so marked's own loop would try every other rule there, fail, and go on with text: here
 * one regular expression takes the whole run instead of a dozen per underscore. The text ends
 * where marked's would end (it only merges text tokens marked would have merged), and none of
 * the run's characters is one that marked's entity decoding looks at.
 */
class ChunkTokenizer extends Tokenizer {
  override inlineText(src: string): Tokens.Text | undefined {
    const token = super.inlineText(src);
    if (token === undefined || this.rules.inline !== noEmail?.inline) return token;
    if (this.lexer.state.inRawBlock || !WORD_END.test(token.raw)) return token;
    UNDERSCORE_WORDS.lastIndex = token.raw.length;
    const run = UNDERSCORE_WORDS.exec(src)?.[0];
    if (run !== undefined) {
      token.raw += run;
      token.text += run;
    }
    return token;
  }
}

// Fresh defaults, so a page configuring its own copy of marked globally cannot change ours. The
// tokenizer is ours too: each lexer sets its rules, and a chunk without `@` swaps them.
const tokenizer = new ChunkTokenizer();
const OPTIONS: MarkedOptions = { ...getDefaults(), gfm: true, tokenizer };

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
    const rules = tokenizer.rules;
    if (!chunk.includes("@")) tokenizer.rules = rulesWithoutEmail(rules);
    let lexed: Token[];
    try {
      lexed = this.#nested(chunk, []);
    } finally {
      tokenizer.rules = rules;
    }
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
