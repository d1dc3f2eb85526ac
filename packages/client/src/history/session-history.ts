/**
 * The history of past conversations as a host (such as `@pi-kit/bridge`) keeps it: one summary per
 * stored session, listed newest first and paged, with rename and delete. UIs such as
 * `<pi-session-list>` depend only on {@link SessionHistory}, so any store can back them.
 */
import type { SessionPage, SessionSummary } from "@pi-kit/protocol/bridge";

/** Which page of the history to read. */
export interface SessionListQuery {
  /** Page size (the host caps it). */
  readonly limit?: number;
  /** The `nextCursor` of the previous page. */
  readonly cursor?: string;
  /** Only sessions whose title or message text contains this (case-insensitive). */
  readonly query?: string;
  /** Cancels the request. */
  readonly signal?: AbortSignal;
}

/** A store of past conversations. */
export interface SessionHistory {
  /** Lists one page, newest activity first. */
  list(query?: SessionListQuery): Promise<SessionPage>;
  /** Creates a session (a random name when omitted) and returns it. */
  create(name?: string): Promise<SessionSummary>;
  /** Sets the session's title (pi's session name), whether or not its pi runs. */
  rename(name: string, title: string): Promise<SessionSummary>;
  /** Stops the session's pi and removes its files: the one operation that deletes user data. */
  delete(name: string): Promise<void>;
}
