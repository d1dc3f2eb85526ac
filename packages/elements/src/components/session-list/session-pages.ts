import type { SessionPage, SessionSummary } from "@pi-kit/client";

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
