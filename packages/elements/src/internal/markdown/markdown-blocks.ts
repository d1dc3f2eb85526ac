import { PieceCutter } from "./inline-chunks.ts";

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
// A list item's marker at the start of an unindented line, with the space after it.
const LIST_ITEM = /^(?:[-*+]|\d{1,9}[.)])[ \t]/;
// What makes a line start anything but paragraph text: a heading, quote, list item, fence,
// thematic break, HTML, table row or link definition. Digits before `.`/`)` are the one prefix.
const BLOCK_START =
  /^(\d{1,9}(?=[.)](?:[ \t]|\n|$))|(?=#{1,6}(?:[ \t]|\n|$)|>|[-*+](?:[ \t]|\n|$)|`{3}|~{3}|(?:[-*_=][ \t]*){3,}(?:\n|$)|<|\||\[[^\]]*\]:))/;

/** True for a line that is not paragraph text (indented code counts as not text, to be safe). */
function startsNonText(line: string): boolean {
  return /^(?: {4}|\t)/.test(line) || BLOCK_START.test(line.replace(/^ {1,3}/, ""));
}

/** True when a block starts with a list item (a list is split into a block per top-level item). */
export function startsList(source: string): boolean {
  return LIST_ITEM.test(source);
}

/** A piece that starts in the middle of a paragraph line, escaped so it still parses as text. */
function asContinuation(piece: string): string {
  const text = piece.replace(/^[ \t]+/, "");
  const match = BLOCK_START.exec(text);
  if (match === null) return text;
  const at = match[1]?.length ?? 0;
  return `${text.slice(0, at)}\\${text.slice(at)}`;
}

/**
 * Splits a growing markdown text into finished top-level blocks and an unfinished tail. A block
 * ends at a blank line outside a code fence that is followed by an unindented line (so loose list
 * items and indented code stay together); a top-level list also ends before each of its
 * unindented items (so a long list streams item by item); and a paragraph longer than a
 * kilobyte is cut into pieces of a few sentences (see `PieceCutter`), each shown as a paragraph.
 * When the text only grew, scanning resumes at the tail: each delta costs O(tail), never
 * O(message) or O(history).
 */
export class MarkdownBlocks {
  /** Sources of the finished blocks, in order. */
  readonly finished: string[] = [];
  #text = "";
  #tailStart = 0;
  /** The tail starts in the middle of a paragraph line. */
  #tailContinues = false;

  /** The unfinished tail (everything after the last finished block). */
  get tail(): string {
    const tail = this.#text.slice(this.#tailStart);
    return this.#tailContinues ? asContinuation(tail) : tail;
  }

  /** Feeds the whole current text; returns true when finished blocks were reset (text was replaced). */
  update(text: string): boolean {
    let reset = false;
    if (!text.startsWith(this.#text)) {
      this.finished.length = 0;
      this.#tailStart = 0;
      this.#tailContinues = false;
      reset = true;
    }
    this.#text = text;
    this.#scan();
    return reset;
  }

  #scan(): void {
    const text = this.#text;
    let lineStart = this.#tailStart;
    let blockStart = lineStart;
    let continues = this.#tailContinues;
    let fence: string | undefined;
    let sawBlank = false;
    let inList: boolean | undefined;
    // Set while the block is paragraph text: finds where to cut it into pieces.
    let paragraph = continues ? new PieceCutter() : undefined;
    const cut = (at: number, nextContinues: boolean): void => {
      const source = text.slice(blockStart, at);
      this.finished.push(continues ? asContinuation(source) : source);
      blockStart = this.#tailStart = at;
      continues = this.#tailContinues = nextContinues;
      inList = undefined;
      paragraph = nextContinues ? new PieceCutter() : undefined;
    };
    while (lineStart < text.length) {
      const newline = text.indexOf("\n", lineStart);
      const lineEnd = newline === -1 ? text.length : newline;
      const line = text.slice(lineStart, lineEnd);
      const startsBlock = lineStart > blockStart && /^\S/.test(line);
      let readsText = false;
      if (continues && lineStart === blockStart) {
        // Scanning resumed at a cut inside a line: that line was read as paragraph text before
        // the cut, so what is left of it is text, whatever it looks like (a fence, spaces).
        readsText = true;
      } else if (fence !== undefined) {
        const close = FENCE.exec(line);
        const marker = close?.[1];
        if (
          newline !== -1 &&
          marker !== undefined &&
          marker[0] === fence[0] &&
          marker.length >= fence.length &&
          line.trim() === marker
        )
          fence = undefined;
      } else if (line.trim() === "") {
        sawBlank = true;
        paragraph = undefined;
      } else {
        if (startsBlock && (sawBlank || (inList && LIST_ITEM.test(line)))) cut(lineStart, false);
        if (lineStart === blockStart) {
          inList = LIST_ITEM.test(line);
          if (!startsNonText(line)) paragraph = new PieceCutter();
        } else if (startsNonText(line)) {
          // A heading, list, fence… interrupts the paragraph: no more cuts in this block.
          paragraph = undefined;
        }
        sawBlank = false;
        // The last line may still be growing: it never opens a fence.
        const open = newline === -1 ? undefined : FENCE.exec(line)?.[1];
        if (open !== undefined) fence = open;
        else readsText = true;
      }
      if (readsText && paragraph !== undefined) {
        for (let i = lineStart; i < lineEnd; i++)
          if (paragraph.push(text.charCodeAt(i)) && i + 1 < lineEnd) cut(i + 1, true);
      }
      if (newline === -1) break;
      paragraph?.push(0x0a);
      lineStart = newline + 1;
    }
  }
}
