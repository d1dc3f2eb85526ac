/** Markdown inputs of the markdown benchmark and the long-input tests: prose and hostile text. */

const WORDS =
  "the model wrote a long answer about streaming parsers, frozen blocks and the cost of each delta while the user waited".split(
    " ",
  );

/**
 * A plain paragraph of about `size` characters: words and sentences, no markup, one line. Each
 * `seed` gives another text (so no cache of an earlier run helps).
 */
export function paragraph(size: number, seed = 0): string {
  let text = "";
  for (let i = 0; text.length < size; i++)
    text += `${WORDS[(i * (seed + 1) + seed) % WORDS.length]}${i % 17 === 16 ? ". " : " "}`;
  return text.slice(0, size);
}

/**
 * `_a_a_a…` to `size` characters: a run of underscores that can neither open nor close emphasis
 * (except the first), a worst case for marked's inline scanning. Each `seed` but 0 varies the
 * letters (so no cache of an earlier run helps); seed 0 is exactly `"_a".repeat(size / 2)`.
 */
export function underscoreRun(size: number, seed = 0): string {
  let text = "";
  let state = seed;
  for (let i = 0; i < size / 2; i++) {
    // A xorshift step picks the letter; seed 0 stays 0, which is "a" throughout.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    text += `_${String.fromCharCode(97 + ((state >>> 0) % 26))}`;
  }
  return text;
}

/** Lists nested ever deeper, one item per level, to about `size` characters ("staircase"). */
export function staircaseList(size: number): string {
  let text = "";
  for (let depth = 0; text.length < size; depth++) text += `${"  ".repeat(depth)}- item ${depth}\n`;
  return text;
}

/** Many lists nested eight deep, one after another, to about `size` characters. */
export function nestedLists(size: number): string {
  let text = "";
  for (let i = 0; text.length < size; i++)
    text += `${"  ".repeat(i % 8)}${i % 16 < 8 ? "-" : "1."} entry ${i} with *some* \`code\`\n`;
  return text;
}

/** The hostile inputs, each built to about `size` characters: deep nesting and delimiter runs. */
export function hostileInputs(size: number): Record<string, string> {
  return {
    "nested quotes": `${"> ".repeat(size / 2)}x`,
    "nested ordered lists": `${"1. ".repeat(size / 3)}x`,
    "underscore runs": underscoreRun(size),
    "staircase list": staircaseList(size),
    "nested lists": nestedLists(size),
    "asterisk runs": "*a".repeat(size / 2),
    "backtick runs": "`a".repeat(size / 2),
    "open brackets": "[a".repeat(size / 2),
    "link openers": "![a](".repeat(size / 5),
  };
}
