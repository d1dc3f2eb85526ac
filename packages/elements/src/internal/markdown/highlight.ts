/**
 * Code highlighting with @speed-highlight/core. This module is itself loaded lazily (import it
 * with `import()`), so neither it nor the grammars are in the initial bundle. Only finished code
 * blocks are highlighted, once each; results are memoised. The highlighter gives tokens, never
 * HTML: they become text in spans (see {@link highlightedNodes}).
 */

const ALIASES: Record<string, string> = {
  javascript: "js",
  jsx: "js",
  mjs: "js",
  cjs: "js",
  typescript: "ts",
  tsx: "ts",
  python: "py",
  sh: "bash",
  shell: "bash",
  zsh: "bash",
  console: "bash",
  rust: "rs",
  yml: "yaml",
  dockerfile: "docker",
  makefile: "make",
  markdown: "md",
  perl: "pl",
  golang: "go",
  htm: "html",
  svg: "xml",
};

const KNOWN = new Set(
  "asm bash c css csv diff docker go html http ini java js json log lua make md pl py regex rs sql toml ts xml yaml".split(
    " ",
  ),
);

/** A highlighted stretch of code: its text and token type (`undefined` for plain text). */
export type CodeToken = readonly [text: string, type: string | undefined];

const memo = new Map<string, Promise<readonly CodeToken[] | undefined>>();

/** The grammar name for a fence language, or `undefined` when none is bundled. */
export function grammarFor(lang: string): string | undefined {
  const name = ALIASES[lang] ?? lang;
  return KNOWN.has(name) ? name : undefined;
}

/** Splits code into highlighted tokens; `undefined` if the language is unknown or loading fails. */
export function highlight(code: string, lang: string): Promise<readonly CodeToken[] | undefined> {
  const grammar = grammarFor(lang);
  if (grammar === undefined) return Promise.resolve(undefined);
  const key = `${grammar}\u0000${code}`;
  let result = memo.get(key);
  if (result === undefined) {
    result = import("@speed-highlight/core")
      .then(async ({ tokenize }) => {
        const tokens: CodeToken[] = [];
        await tokenize(code, grammar, (text, type) => {
          if (text !== "") tokens.push([text, type]);
        });
        return tokens;
      })
      .catch(() => undefined);
    memo.set(key, result);
    if (memo.size > 300) {
      const oldest = memo.keys().next().value;
      if (oldest !== undefined) memo.delete(oldest);
    }
  }
  return result;
}

/** DOM nodes for highlighted tokens: text nodes, in spans with a `shj-syn-<type>` class. */
export function highlightedNodes(tokens: readonly CodeToken[]): Node[] {
  return tokens.map(([text, type]) => {
    if (type === undefined || !/^[\w-]+$/.test(type)) return document.createTextNode(text);
    const span = document.createElement("span");
    span.className = `shj-syn-${type}`;
    span.textContent = text;
    return span;
  });
}

/**
 * Highlights a `code` element in place: its text, in the grammar of its `data-lang`. Marks it
 * `data-hl` so it is done once; skips it if its text changed meanwhile.
 */
export function highlightElement(code: HTMLElement): void {
  if (code.dataset.hl !== undefined) return;
  code.dataset.hl = "";
  const source = code.textContent ?? "";
  void highlight(source, code.dataset.lang ?? "").then((tokens) => {
    if (tokens !== undefined && code.isConnected && code.textContent === source)
      code.replaceChildren(...highlightedNodes(tokens));
  });
}
