/**
 * The history in memory: every session directory's record and summary, kept in order of last
 * activity (newest first, then by name), so a page is a binary search and a slice, not a scan of
 * the sessions or their files. Paging is by key (an opaque cursor holds the last key served), so
 * pages stay consistent while sessions are added, removed or become active.
 */
import type { SessionPage, SessionSummary } from "@pi-kit/protocol/bridge";
import type { LiveState } from "../sessions/session-info.ts";
import type { DirectoryRecord } from "./session-directory.ts";
import { isEmptySession, lastActivityMs, summarize } from "./stored-session.ts";

/** One indexed session: a slot updated in place, so the order never needs searching. */
interface Indexed {
  name: string;
  record: DirectoryRecord;
  live: LiveState | undefined;
  summary: SessionSummary;
  /** Sort key: last activity in ms, newest first. */
  activity: number;
  /** The title lower-cased, for the filter. */
  title: string;
  /** No conversation yet (see `isEmptySession`): left out of pages. */
  empty: boolean;
}

/** A position in history order: a page starts after it. */
interface Key {
  readonly activity: number;
  readonly name: string;
}

/** A cursor that is not one of ours. */
export class InvalidCursorError extends Error {
  constructor() {
    super("The cursor is not one this bridge gave out");
    this.name = "InvalidCursorError";
  }
}

/** Which page to read. */
export interface PageQuery {
  readonly limit: number;
  readonly cursor?: string | undefined;
  /**
   * Only sessions whose title, or the text of whose messages (the digests' search text, see
   * `MAX_SEARCH_TEXT`), contains this, case-insensitively, whitespace collapsed.
   */
  readonly query?: string | undefined;
  /** Only sessions whose name passes (a ticket's sessions). */
  readonly only?: ((name: string) => boolean) | undefined;
}

/** The sessions of a sessions directory, in history order. */
export class SessionIndex {
  readonly #entries = new Map<string, Indexed>();
  /** Names with a live state, so clearing them does not visit every session. */
  readonly #live = new Set<string>();
  #order: Indexed[] = [];
  #sorted = true;
  /** Removed slots are still in `#order` until the next read. */
  #removed = false;

  /** How many sessions are indexed. */
  get size(): number {
    return this.#entries.size;
  }

  /** The names of the indexed sessions. */
  names(): IterableIterator<string> {
    return this.#entries.keys();
  }

  /** The record of session `name`. */
  record(name: string): DirectoryRecord | undefined {
    return this.#entries.get(name)?.record;
  }

  /** The summary of session `name`. */
  summary(name: string): SessionSummary | undefined {
    return this.#entries.get(name)?.summary;
  }

  /** Every record, for saving. */
  records(): DirectoryRecord[] {
    return [...this.#entries.values()].map((entry) => entry.record);
  }

  /** Adds or replaces the record of a session directory, keeping its live state. */
  put(record: DirectoryRecord): void {
    this.#set(record, this.#entries.get(record.name)?.live);
  }

  /** Sets (or, with `undefined`, clears) the live state of an indexed session. */
  setLive(name: string, live: LiveState | undefined): void {
    const entry = this.#entries.get(name);
    if (entry === undefined || sameLive(entry.live, live)) return;
    this.#set(entry.record, live);
  }

  /** The names that have a live state. */
  liveNames(): string[] {
    return [...this.#live];
  }

  /** Forgets session `name`. */
  remove(name: string): void {
    const entry = this.#entries.get(name);
    if (entry === undefined) return;
    this.#entries.delete(name);
    this.#live.delete(name);
    this.#removed = true;
  }

  /** One page, newest activity first. Throws {@link InvalidCursorError} for a foreign cursor. */
  page({ limit, cursor, query, only }: PageQuery): SessionPage {
    const order = this.#ordered();
    let at = 0;
    if (cursor !== undefined) {
      const key = decodeCursor(cursor);
      // The first entry after the key: order is ascending under `compare`.
      let lo = 0;
      let hi = order.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compare(order[mid] as Indexed, key) <= 0) lo = mid + 1;
        else hi = mid;
      }
      at = lo;
    }
    const needle = query?.replace(/\s+/g, " ").trim().toLowerCase() ?? "";
    const sessions: SessionSummary[] = [];
    let last: Indexed | undefined;
    let more = false;
    for (; at < order.length; at++) {
      const entry = order[at] as Indexed;
      if (entry.empty) continue;
      if (needle !== "" && !matches(entry, needle)) continue;
      if (only !== undefined && !only(entry.name)) continue;
      if (sessions.length === limit) {
        more = true;
        break;
      }
      sessions.push(entry.summary);
      last = entry;
    }
    return { sessions, nextCursor: more && last !== undefined ? encodeCursor(last) : null };
  }

  #set(record: DirectoryRecord, live: LiveState | undefined): void {
    const summary = summarize(record, live);
    const activity = lastActivityMs(record, live);
    const title = summary.title.toLowerCase();
    const empty = isEmptySession(record, summary);
    if (live === undefined) this.#live.delete(record.name);
    else this.#live.add(record.name);
    const slot = this.#entries.get(record.name);
    if (slot === undefined) {
      const entry: Indexed = { name: record.name, record, live, summary, activity, title, empty };
      this.#entries.set(record.name, entry);
      this.#order.push(entry);
      this.#sorted = false;
      return;
    }
    if (slot.activity !== activity) this.#sorted = false;
    Object.assign(slot, { record, live, summary, activity, title, empty });
  }

  #ordered(): Indexed[] {
    if (this.#removed) {
      this.#order = this.#order.filter((entry) => this.#entries.get(entry.name) === entry);
      this.#removed = false;
    }
    if (!this.#sorted) {
      // Mostly sorted already (a few sessions moved): the engine's merge sort is near linear here.
      this.#order.sort(compare);
      this.#sorted = true;
    }
    return this.#order;
  }
}

/** Whether the session's title or any of its files' message text contains `needle`. */
function matches(entry: Indexed, needle: string): boolean {
  if (entry.title.includes(needle)) return true;
  for (const file of entry.record.files) {
    const digest = file.digest;
    if (digest?.askedText.includes(needle) || digest?.answeredText.includes(needle)) return true;
  }
  return false;
}

/** History order: newer activity first, then by name. Negative when `a` comes first. */
function compare(a: Key, b: Key): number {
  if (a.activity !== b.activity) return b.activity - a.activity;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function sameLive(a: LiveState | undefined, b: LiveState | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return (
    a.state === b.state &&
    a.lastActivityMs === b.lastActivityMs &&
    a.name === b.name &&
    a.file === b.file &&
    a.forked === b.forked
  );
}

const CURSOR_PREFIX = "h1:";

function encodeCursor(key: Key): string {
  return btoa(`${CURSOR_PREFIX}${key.activity}:${key.name}`)
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

function decodeCursor(cursor: string): Key {
  let text: string;
  try {
    text = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    throw new InvalidCursorError();
  }
  const match = /^h1:(\d+):([A-Za-z0-9_-]{1,64})$/.exec(text);
  if (match === null) throw new InvalidCursorError();
  return { activity: Number(match[1]), name: match[2] as string };
}
