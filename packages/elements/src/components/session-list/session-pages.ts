import type { SessionPage, SessionSummary } from "@pi-kit/client";
import { html, nothing } from "lit";
import { format } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import type { PiSessionStrings } from "../../internal/i18n/session-strings.ts";

/** The list after a page arrived: the next page appended, a first page merged in front, or alone. */
export function withPage(
  mode: "reset" | "refresh" | "more",
  loaded: SessionPage,
  page: SessionPage,
): { sessions: SessionSummary[]; nextCursor: string | null } {
  if (mode === "refresh") return mergeFirstPage(loaded.sessions, loaded.nextCursor, page);
  if (mode === "reset") return { sessions: [...page.sessions], nextCursor: page.nextCursor };
  const known = new Set(loaded.sessions.map((s) => s.name));
  const added = page.sessions.filter((s) => !known.has(s.name));
  return { sessions: [...loaded.sessions, ...added], nextCursor: page.nextCursor };
}

/** Why a history call failed, in the list's words. */
export function failureText(
  s: PiStrings & PiSessionStrings,
  action: "create" | "rename" | "delete",
  error: unknown,
  title: string,
): string {
  const template = {
    create: s.sessionsCreateFailed,
    rename: s.sessionsRenameFailed,
    delete: s.sessionsDeleteFailed,
  }[action];
  return format(template, { title, error: error instanceof Error ? error.message : String(error) });
}

/** What a search found, for screen readers: how many, or that nothing matched; `""` without a query. */
export function searchResult(
  s: PiStrings & PiSessionStrings,
  query: string,
  count: number,
): string {
  if (!query) return "";
  return count ? format(s.sessionsCount, { count }) : format(s.sessionsNoMatch, { query });
}

/** A conversation with nothing in it yet (no message, no title): the list leaves it out. */
export function isEmptySession(session: SessionSummary): boolean {
  return session.messageCount === 0 && session.title === "" && session.damaged === undefined;
}

/** What the end of the list shows: an error, "Show more", loading, or why it is empty. */
export interface ListFooter {
  readonly strings: PiStrings & PiSessionStrings;
  readonly error: string | undefined;
  /** More pages can be loaded. */
  readonly more: boolean;
  readonly loading: boolean;
  /** Rows loaded. */
  readonly count: number;
  /** A page was loaded. */
  readonly loaded: boolean;
  /** The search text, trimmed. */
  readonly filter: string;
  /** A conversation is open in the page. */
  readonly open: boolean;
  readonly retry: () => void;
  readonly loadMore: () => void;
}

/** The end of the list, below the rows. */
export function listFooter(f: ListFooter): unknown {
  const s = f.strings;
  if (f.error !== undefined)
    return html`<div part="status" class="status error" role="alert">
      <span>${format(s.loadFailed, { error: f.error })}</span>
      <button @click=${f.retry}>${s.retry}</button>
    </div>`;
  if (f.more)
    return html`<button part="more-button" class="more" ?disabled=${f.loading} @click=${f.loadMore}>
      ${f.loading ? s.loading : s.sessionsMore}
    </button>`;
  if (f.loading && f.count === 0) return html`<p part="status" class="status">${s.loading}</p>`;
  // A conversation is open (one not listed yet, or still starting): "no conversations" would be
  // false, but an empty list still says what it is.
  if (f.loaded && f.count === 0)
    return html`<p part="status" class="status">${
      f.filter
        ? format(s.sessionsNoMatch, { query: f.filter })
        : f.open
          ? s.sessionsNoEarlier
          : s.sessionsEmpty
    }</p>`;
  return nothing;
}

/**
 * Puts a freshly read first page in front of what was loaded before: a conversation the page
 * holds moves to its new place, the pages after it stay loaded (with their cursor), so a refresh
 * after each run does not throw away what the user scrolled to. When the first page is the whole
 * history, it is the whole list.
 */
export function mergeFirstPage(
  loaded: readonly SessionSummary[],
  loadedCursor: string | null,
  page: SessionPage,
): { sessions: SessionSummary[]; nextCursor: string | null } {
  if (page.nextCursor === null) return { sessions: [...page.sessions], nextCursor: null };
  const fresh = new Set(page.sessions.map((s) => s.name));
  // Only what lies beyond the page's last row is kept: anything before it the page has replaced.
  const last = page.sessions.at(-1)?.name;
  const lastIndex = last === undefined ? -1 : loaded.findIndex((s) => s.name === last);
  if (lastIndex < 0) return { sessions: [...page.sessions], nextCursor: page.nextCursor };
  const rest = loaded.slice(lastIndex + 1).filter((s) => !fresh.has(s.name));
  return { sessions: [...page.sessions, ...rest], nextCursor: loadedCursor };
}
