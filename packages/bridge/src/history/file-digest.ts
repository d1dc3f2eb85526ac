/**
 * What the history needs from one pi session file (JSONL: a `session` header line, then one
 * entry per line), gathered line by line. A digest records where it stopped, so a file pi appended
 * to is read on from there, not again from the start. It reads files the way pi does: blank and
 * malformed lines are skipped, and the first line that parses must be the header.
 */

/** The longest title taken from a first message; the rest is cut with an ellipsis. */
export const MAX_TITLE_LENGTH = 200;

/**
 * How much of a file's messages the history searches, in characters: of the user's messages,
 * and of pi's answers, each. Bounded so the index (in memory and in its file) stays small.
 */
export const MAX_SEARCH_TEXT = { asked: 1000, answered: 500 } as const;

/** The header line of a pi session file. */
export interface SessionHeader {
  /** pi's session id. */
  readonly id: string;
  /** When pi created the session (ISO 8601). */
  readonly timestamp: string;
  /** The working directory pi runs the session in. */
  readonly cwd: string | undefined;
  /**
   * The file name (no directory) of the session this one was forked from (pi's `parentSession`),
   * when pi recorded one.
   */
  readonly parentFile?: string;
}

/** What one session file holds, read up to `parsedBytes`. Plain data: the index file stores it. */
export interface FileDigest {
  /** Bytes of whole lines read; a last line without its LF is not included. */
  readonly parsedBytes: number;
  /** Bytes of the first line with its LF, and a hash of it: a rewritten file changes them. */
  readonly headBytes: number;
  readonly headHash: number;
  /** `pi`: a session header came first; `foreign`: something else did; `empty`: nothing parsed yet. */
  readonly kind: "pi" | "foreign" | "empty";
  /** The header, when `kind` is `pi`. */
  readonly header: SessionHeader | null;
  /** `message` entries, on every branch (as pi's own session list counts them). */
  readonly messageCount: number;
  /** The user's messages, on every branch: a file without any holds no conversation yet. */
  readonly userMessages: number;
  /** The first user message's text, whitespace collapsed and cut to {@link MAX_TITLE_LENGTH}. */
  readonly firstUserText: string;
  /**
   * The text of the user's messages, lower-cased, whitespace collapsed, one message after the
   * other, cut at {@link MAX_SEARCH_TEXT}: what the history's search matches.
   */
  readonly askedText: string;
  /** The text blocks of pi's answers, as {@link askedText}. */
  readonly answeredText: string;
  /** pi's session name: the latest `session_info` entry's; `undefined` when unset or cleared. */
  readonly name: string | undefined;
  /** The id of the last entry: the leaf pi continues from when it opens the file. */
  readonly lastEntryId: string | null;
  /** The last message leaves a run unfinished: a user message or tool result with no answer after it. */
  readonly openRun: boolean;
  /** Complete lines that are not JSON objects (pi skips them too). */
  readonly badLines: number;
}

/** The digest of a file with nothing in it. */
export const EMPTY_DIGEST: FileDigest = {
  parsedBytes: 0,
  headBytes: 0,
  headHash: 0,
  kind: "empty",
  header: null,
  messageCount: 0,
  userMessages: 0,
  firstUserText: "",
  askedText: "",
  answeredText: "",
  name: undefined,
  lastEntryId: null,
  openRun: false,
  badLines: 0,
};

/** FNV-1a over UTF-16 code units: enough to notice that a first line changed. */
export function hashLine(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** Builds a digest from lines, starting empty or from an earlier digest of the same file. */
export class DigestBuilder {
  #digest: { -readonly [K in keyof FileDigest]: FileDigest[K] };
  /** Whether the next line is the first non-blank one (the head). */
  #atHead: boolean;

  constructor(from: FileDigest = EMPTY_DIGEST) {
    this.#digest = { ...from };
    this.#atHead = from.parsedBytes === 0;
  }

  /** The digest so far. */
  get digest(): FileDigest {
    return { ...this.#digest };
  }

  /** Takes one complete line (without its LF) that spans `bytes` bytes with the LF. */
  line(text: string, bytes: number): void {
    const d = this.#digest;
    d.parsedBytes += bytes;
    if (this.#atHead) {
      this.#atHead = false;
      d.headBytes = bytes;
      d.headHash = hashLine(text);
    }
    if (text.trim() === "") return;
    let entry: unknown;
    try {
      entry = JSON.parse(text);
    } catch {
      d.badLines++;
      return;
    }
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      d.badLines++;
      return;
    }
    const record = entry as Record<string, unknown>;
    if (d.kind === "empty") {
      d.kind = isHeader(record) ? "pi" : "foreign";
      if (d.kind === "pi") {
        const parent =
          typeof record.parentSession === "string" ? baseName(record.parentSession) : "";
        d.header = {
          id: record.id as string,
          timestamp: typeof record.timestamp === "string" ? record.timestamp : "",
          cwd: typeof record.cwd === "string" ? record.cwd : undefined,
          ...(parent === "" ? {} : { parentFile: parent }),
        };
        return;
      }
    }
    if (d.kind !== "pi") return;
    if (typeof record.id === "string") d.lastEntryId = record.id;
    if (record.type === "session_info") {
      d.name = typeof record.name === "string" ? record.name.trim() || undefined : undefined;
    } else if (record.type === "message") {
      d.messageCount++;
      this.#message(record.message);
    }
  }

  #message(message: unknown): void {
    if (typeof message !== "object" || message === null) return;
    const { role, stopReason, content } = message as Record<string, unknown>;
    const d = this.#digest;
    if (role === "user") {
      d.openRun = true;
      d.userMessages++;
      if (d.firstUserText === "") d.firstUserText = titleText(content);
      d.askedText = searchable(d.askedText, content, MAX_SEARCH_TEXT.asked);
    } else if (role === "toolResult") {
      d.openRun = true;
    } else if (role === "assistant") {
      // An answer that asks for tools continues once their results are in.
      d.openRun = stopReason === "toolUse";
      d.answeredText = searchable(d.answeredText, content, MAX_SEARCH_TEXT.answered);
    } else if (role !== "system") {
      // Extension and bash-execution messages do not start a run; a system message precedes
      // the user message it was sent with, so it leaves the state as it is.
      d.openRun = false;
    }
  }
}

/** The last segment of a path, POSIX or Windows (pi writes the parent's absolute path). */
function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}

/** Whether a parsed line is a session header as pi checks it: `type: "session"` and a string id. */
function isHeader(record: Record<string, unknown>): boolean {
  return record.type === "session" && typeof record.id === "string";
}

/** A message's text blocks joined as pi's session list joins them (thinking and tool calls left out). */
function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(
      (block): block is { type: "text"; text: string } =>
        typeof block === "object" &&
        block !== null &&
        (block as { type?: unknown }).type === "text" &&
        typeof (block as { text?: unknown }).text === "string",
    )
    .map((block) => block.text)
    .join(" ");
}

/** `soFar` with a message's text added, lower-cased and whitespace collapsed, up to `max` characters. */
function searchable(soFar: string, content: unknown, max: number): string {
  if (soFar.length >= max) return soFar;
  // Only what still fits is collapsed (an answer may be megabytes).
  const room = max - soFar.length;
  const text = messageText(content)
    .slice(0, room * 4)
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
  if (text === "") return soFar;
  return (soFar === "" ? text : `${soFar} ${text}`).slice(0, max);
}

/** A message's text, whitespace collapsed, cut short for a title. */
function titleText(content: unknown): string {
  const flat = messageText(content).replace(/\s+/g, " ").trim();
  return flat.length <= MAX_TITLE_LENGTH
    ? flat
    : `${flat.slice(0, MAX_TITLE_LENGTH - 1).trimEnd()}…`;
}
