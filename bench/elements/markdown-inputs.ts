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
    "underscore runs": "_a".repeat(size / 2),
    "staircase list": staircaseList(size),
    "nested lists": nestedLists(size),
    "asterisk runs": "*a".repeat(size / 2),
    "backtick runs": "`a".repeat(size / 2),
    "open brackets": "[a".repeat(size / 2),
    "link openers": "![a](".repeat(size / 5),
  };
}
