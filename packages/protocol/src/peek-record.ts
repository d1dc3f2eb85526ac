/**
 * The `type` and `id` of one JSONL record without parsing it. A relay (the bridge) routes every
 * record by these two fields but passes the text on untouched, and pi's records can be hundreds of
 * kilobytes (0.73's `message_update` repeats the whole message so far), so a full `JSON.parse` per
 * record would cost more than the relay itself. The scan reads top-level keys in any order, skips
 * values it does not need without decoding them, and stops as soon as it has the field asked for:
 * with pi's key order (`type` first, or `id` then `type` on a response) it reads a few bytes.
 */

/** The routing fields of a record, read lazily from its text. */
export interface RecordPeek {
  /** The top-level `type` when it is a string, else `undefined`. */
  readonly type: string | undefined;
  /** The top-level `id` when it is a string or a number, else `undefined`. */
  readonly id: string | number | undefined;
}

/**
 * Peeks at one record's text: `undefined` when it is not a JSON object, else its {@link RecordPeek}.
 * It never throws: a malformed record peeks as far as it is well-formed, and the fields it could not
 * reach are `undefined`. It does not validate; parse the record when you need the rest of it.
 * @example
 * const peek = peekRecord(line);
 * if (peek?.type === "response") pending.get(peek.id)?.(line);
 */
export function peekRecord(line: string): RecordPeek | undefined {
  const start = skipSpace(line, 0);
  return line.charCodeAt(start) === OPEN_BRACE ? new LinePeek(line, start + 1) : undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const NOT_FOUND = Symbol("not found");

type Field = "type" | "id";
type Value = string | number | undefined;

/** Scans the object's top-level members once, remembering the fields it passed on the way. */
class LinePeek implements RecordPeek {
  readonly #line: string;
  /** Where the next member starts, or -1 once the object's end (or a malformed member) is reached. */
  #cursor: number;
  #type: Value | typeof NOT_FOUND = NOT_FOUND;
  #id: Value | typeof NOT_FOUND = NOT_FOUND;

  constructor(line: string, cursor: number) {
    this.#line = line;
    this.#cursor = cursor;
  }

  get type(): string | undefined {
    while (this.#type === NOT_FOUND && this.#next());
    return typeof this.#type === "string" ? this.#type : undefined;
  }

  get id(): string | number | undefined {
    while (this.#id === NOT_FOUND && this.#next());
    return this.#id === NOT_FOUND ? undefined : this.#id;
  }

  /** Reads one member; false when there are no more. */
  #next(): boolean {
    if (this.#cursor < 0) return this.#end();
    const line = this.#line;
    let i = skipSpace(line, this.#cursor);
    if (line.charCodeAt(i) !== QUOTE) return this.#end();
    const keyEnd = stringEnd(line, i);
    if (keyEnd < 0) return this.#end();
    const key = decodeString(line, i, keyEnd);
    i = skipSpace(line, keyEnd);
    if (line.charCodeAt(i) !== COLON) return this.#end();
    i = skipSpace(line, i + 1);
    const wanted: Field | undefined =
      key === "type" && this.#type === NOT_FOUND
        ? "type"
        : key === "id" && this.#id === NOT_FOUND
          ? "id"
          : undefined;
    const end = valueEnd(line, i);
    if (end < 0) return this.#end();
    if (wanted !== undefined) {
      const value = scalar(line, i, end);
      if (wanted === "type") this.#type = value;
      else this.#id = value;
    }
    i = skipSpace(line, end);
    if (line.charCodeAt(i) !== COMMA) return this.#end();
    this.#cursor = i + 1;
    return true;
  }

  /** Marks the scan finished: fields not seen by now are absent. */
  #end(): false {
    this.#cursor = -1;
    if (this.#type === NOT_FOUND) this.#type = undefined;
    if (this.#id === NOT_FOUND) this.#id = undefined;
    return false;
  }
}

function skipSpace(line: string, i: number): number {
  let at = i;
  for (;;) {
    const c = line.charCodeAt(at);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return at;
    at++;
  }
}

/** The index just past the closing quote of the string that opens at `i`, or -1. */
function stringEnd(line: string, i: number): number {
  let at = i + 1;
  for (;;) {
    const quote = line.indexOf('"', at);
    if (quote < 0) return -1;
    let slashes = 0;
    while (line.charCodeAt(quote - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

/** The string between `start` and `end` (quotes included), unescaped only when it has escapes. */
function decodeString(line: string, start: number, end: number): string {
  const raw = line.slice(start + 1, end - 1);
  if (!raw.includes("\\")) return raw;
  try {
    return JSON.parse(line.slice(start, end)) as string;
  } catch {
    return raw;
  }
}

/** The index just past the value that starts at `i` (nested values skipped whole), or -1. */
function valueEnd(line: string, i: number): number {
  const first = line.charCodeAt(i);
  if (first === QUOTE) return stringEnd(line, i);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    let at = i;
    for (;;) {
      const c = line.charCodeAt(at);
      if (Number.isNaN(c)) return at > i ? at : -1;
      if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c <= 0x20) return at;
      at++;
    }
  }
  let depth = 0;
  let at = i;
  while (at < line.length) {
    const c = line.charCodeAt(at);
    if (c === QUOTE) {
      at = stringEnd(line, at);
      if (at < 0) return -1;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return at + 1;
    }
    at++;
  }
  return -1;
}

/** A string or finite number value; `undefined` for anything else (objects, booleans, null). */
function scalar(line: string, start: number, end: number): Value {
  if (line.charCodeAt(start) === QUOTE) return decodeString(line, start, end);
  const number = Number(line.slice(start, end));
  return end > start && Number.isFinite(number) && /^-?\d/.test(line.slice(start, start + 2))
    ? number
    : undefined;
}
