/**
 * The history of past conversations as a host (such as `@pi-kit/bridge`) keeps it: one summary per
 * stored session, listed newest first and paged, with rename and delete. UIs such as
 * `<pi-session-list>` depend only on {@link SessionHistory}, so any store can back them.
 */

/** Where a stored session's pi is: in a run, up and waiting, or not running at all. */
export type StoredSessionState = "running" | "idle" | "stopped";

/** One conversation in the history. */
export interface SessionSummary {
  /** The session's name: its key in URLs, on disk and in the API. Never changes. */
  readonly name: string;
  /** pi's session name, else the first user message, trimmed; empty before the first message. */
  readonly title: string;
  /** When the session was created (ISO 8601). */
  readonly createdAt: string;
  /** The last activity: a record either way, or the last write to its files (ISO 8601). */
  readonly lastActivity: string;
  /** How many messages the session holds. */
  readonly messageCount: number;
  /** Whether its pi is in a run, idle, or stopped. */
  readonly state: StoredSessionState;
  /** Bytes its files take on disk. */
  readonly sizeBytes: number;
  /** Set when its files could not be read in full: why, in words for people. */
  readonly damaged?: string;
  /**
   * Set when the last run was cut off (pi stopped or crashed mid-run): the transcript is what pi
   * saved and ends without pi's answer. Cleared by the next message.
   */
  readonly interrupted?: boolean;
}

/** One page of the history. */
export interface SessionPage {
  /** Newest activity first. */
  readonly sessions: readonly SessionSummary[];
  /** Pass as `cursor` for the next page; `null` on the last page. */
  readonly nextCursor: string | null;
}

/** Which page of the history to read. */
export interface SessionListQuery {
  /** Page size (the host caps it). */
  readonly limit?: number;
  /** The `nextCursor` of the previous page. */
  readonly cursor?: string;
  /** Only sessions whose title contains this text (case-insensitive). */
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
