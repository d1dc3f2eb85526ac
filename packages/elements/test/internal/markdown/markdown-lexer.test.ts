import { expect } from "@open-wc/testing";
import fc from "fast-check";
import { getDefaults, Lexer, Tokenizer } from "marked";
import { lexMarkdown, rulesWithoutEmail } from "../../../src/internal/markdown/markdown-lexer.ts";

// The bounded lexer's shortcuts (rules without email look-ahead, text runs across `a_b`) must
// give exactly marked's tokens. Inputs stay short (one piece, few elements, shallow), where the
// bounded lexer has nothing to bound.

/** marked's own tokens for `source`, with a tokenizer of marked's. */
function stock(source: string): unknown {
  return JSON.parse(JSON.stringify(new Lexer({ ...getDefaults(), gfm: true }).lex(source)));
}

function ours(source: string): unknown {
  return JSON.parse(JSON.stringify(lexMarkdown(source)));
}

const piece = fc.constantFrom(
  "_",
  "__",
  "a",
  "b",
  "Z",
  "7",
  " ",
  "  \n",
  "\n",
  "*",
  "~",
  "`",
  "[",
  "](",
  ")",
  "<",
  ">",
  "\\",
  "&",
  "&#65;",
  "&amp;",
  ";",
  ".",
  ":",
  "é",
  "!",
  "(",
  "@",
  "x@y.io",
  "http",
  "https://a.io/b_c",
  "ftp://f.io",
  "www.",
  "www.w.io",
  "mailto:",
  "snake_case",
  "_a_b_c",
  "a_www.x.io",
);

describe("bounded markdown lexer", () => {
  it("lexes text without @ with rules that do not look for addresses", () => {
    const tokenizer = new Tokenizer();
    new Lexer({ ...getDefaults(), gfm: true, tokenizer });
    const fast = rulesWithoutEmail(tokenizer.rules);
    // Should marked's rules change shape, the shortcut would silently stop applying.
    expect(tokenizer.rules.inline.text.source).to.contain("+@)");
    expect(fast.inline.text.source).not.to.contain("+@)");
    expect(fast.inline.url.source).not.to.equal(tokenizer.rules.inline.url.source);
  });

  it("gives marked's own tokens for text with underscores, links, entities and emphasis", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const source = pieces.join("");
        expect(ours(source), JSON.stringify(source)).to.deep.equal(stock(source));
      }),
      { numRuns: 2000, seed: 19 },
    );
  });
});
