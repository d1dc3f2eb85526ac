/**
 * The bridge's history API bodies: one summary per stored session, listed newest first and paged
 * (`GET /api/sessions`), and the files of a forked conversation.
 */

/** Where a stored session's pi is: in a run, up and waiting, or not running at all. */
export type StoredSessionState = "running" | "idle" | "stopped";

/**
 * One session file of a conversation. pi writes a new file for each fork (and clone), and keeps
 * the one it came from: every file stays reachable, by opening the conversation and switching pi
 * to the file (`switch_session` with {@link SessionFork.file}).
 */
export interface SessionFork {
  /** The file's name in the conversation's directory: the `sessionPath` for `switch_session`. */
  readonly file: string;
  /**
   * pi's session name, else the first user message; a fork without a name of its own is named
   * after the file it came from, "<its title> (fork)".
   */
  readonly title: string;
  /** When pi created the file (ISO 8601). */
  readonly createdAt: string;
  /** The last write to the file (ISO 8601). */
  readonly lastActivity: string;
  /** How many messages the file holds. */
  readonly messageCount: number;
  /** Whether this is the file pi continues when the conversation opens (the one written last). */
  readonly current: boolean;
  /** The file this one was forked from, when it belongs to the same conversation. */
  readonly forkedFrom?: string;
}

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
  /**
   * Every session file of the conversation, oldest first, when there are two or more (after a
   * fork): the one pi continues has `current` set, the others can be switched to.
   */
  readonly forks?: readonly SessionFork[];
}

/** One page of the history. A conversation enters it with its first message. */
export interface SessionPage {
  /** Newest activity first. */
  readonly sessions: readonly SessionSummary[];
  /** Pass as `cursor` for the next page; `null` on the last page. */
  readonly nextCursor: string | null;
}
