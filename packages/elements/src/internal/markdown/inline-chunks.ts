/**
 * Where to cut long inline text into pieces that are parsed (and laid out) on their own. This
 * bounds the parser's work on hostile text (its delimiter matching is quadratic in the length of
 * a run such as `_a_a_a…`) and lets a streamed paragraph freeze its finished pieces: a cut only
 * depends on the text before it, so appending text never moves an earlier cut.
 *
 * A piece ends at the first space after a sentence once it is {@link TARGET} characters long, at
 * any space once it is {@link SOFT} long, and anywhere at {@link HARD}. The first two only cut
 * where no code span, emphasis or link bracket is open, so ordinary markup never breaks; text with
 * no such place (hostile input, or one word of two thousand letters) is cut at the hard limit.
 */

/** Length from which a piece ends at the end of a sentence. */
export const TARGET = 400;
/** Length from which a piece ends at any space; shorter texts are one piece. */
export const SOFT = 1024;
/** Length at which a piece ends wherever it is. */
export const HARD = 2048;

const BACKTICK = 0x60;
const STAR = 0x2a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

// . ! ? ; :
const SENTENCE_END = new Set([0x2e, 0x21, 0x3f, 0x3b, 0x3a]);
// The CJK full stop, exclamation and question marks, which no space follows.
const CJK_STOP = new Set([0x3002, 0xff01, 0xff1f]);

/** Finds the cuts in text fed to it one character at a time. */
export class PieceCutter {
  #length = 0;
  #ticks = 0;
  #stars = 0;
  #brackets = 0;
  #previous = 0;

  /** Takes the next character (a UTF-16 code unit); true when the piece ends after it. */
  push(code: number): boolean {
    if (code === BACKTICK) this.#ticks++;
    else if (code === STAR) this.#stars++;
    else if (code === OPEN_BRACKET) this.#brackets++;
    else if (code === CLOSE_BRACKET && this.#brackets > 0) this.#brackets--;
    const previous = this.#previous;
    this.#previous = code;
    const length = ++this.#length;
    if (length < TARGET) return false;
    let cut: boolean;
    if (length >= HARD) {
      // Never between the halves of a surrogate pair.
      cut = code < 0xd800 || code > 0xdbff;
    } else if (this.#ticks % 2 !== 0 || this.#stars % 2 !== 0 || this.#brackets !== 0) {
      cut = false;
    } else if (code === 0x20 || code === 0x09) {
      cut = length >= SOFT || SENTENCE_END.has(previous);
    } else {
      cut = CJK_STOP.has(code);
    }
    if (cut) this.#length = this.#ticks = this.#stars = this.#brackets = 0;
    return cut;
  }
}

/** The pieces of `text`, in order; a text of at most {@link SOFT} characters is one piece. */
export function inlineChunks(text: string): string[] {
  if (text.length <= SOFT) return [text];
  const cutter = new PieceCutter();
  const chunks: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (!cutter.push(text.charCodeAt(i))) continue;
    chunks.push(text.slice(start, i + 1));
    start = i + 1;
  }
  if (start < text.length) chunks.push(text.slice(start));
  return chunks;
}
