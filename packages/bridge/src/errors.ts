/** Machine-readable kinds of {@link BridgeError}. */
export const BridgeErrorCode = {
  /** The options cannot work (a weak token, an unknown command in a policy list). */
  InvalidOptions: "invalid_options",
  /** The session cap is reached. */
  TooManySessions: "too_many_sessions",
  /** A session name is not a safe directory name. */
  InvalidSessionName: "invalid_session_name",
  /** No session has that name. */
  UnknownSession: "unknown_session",
  /** pi could not be spawned. */
  SpawnFailed: "spawn_failed",
  /** The bridge is shutting down. */
  Closing: "closing",
  /** A request to the API is malformed (a bad title, limit or body). */
  InvalidRequest: "invalid_request",
  /** A history cursor the bridge did not give out. */
  InvalidCursor: "invalid_cursor",
  /** The session's directory cannot be read, so its pi cannot start on it. */
  SessionUnreadable: "session_unreadable",
  /** The bridge needed the session's pi, but it is not running. */
  SessionStopped: "session_stopped",
  /** pi refused the bridge's command. */
  PiError: "pi_error",
  /** pi did not answer the bridge's command in time. */
  PiTimeout: "pi_timeout",
} as const;
/** Machine-readable kinds of {@link BridgeError}. */
export type BridgeErrorCode = (typeof BridgeErrorCode)[keyof typeof BridgeErrorCode];

/** An HTTP status the bridge answers errors with. */
export type BridgeErrorStatus = 400 | 404 | 409 | 500 | 502 | 503 | 504;

/** The HTTP status each error code maps to when it ends a request. */
export const BRIDGE_ERROR_STATUS: Readonly<Record<BridgeErrorCode, BridgeErrorStatus>> = {
  invalid_options: 500,
  too_many_sessions: 503,
  invalid_session_name: 400,
  unknown_session: 404,
  spawn_failed: 500,
  closing: 503,
  invalid_request: 400,
  invalid_cursor: 400,
  session_unreadable: 409,
  session_stopped: 409,
  pi_error: 502,
  pi_timeout: 504,
};

/** The one error class of the bridge: a `code` to branch on and the underlying `cause`. */
export class BridgeError extends Error {
  /** What went wrong. */
  readonly code: BridgeErrorCode;

  constructor(code: BridgeErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BridgeError";
    this.code = code;
  }

  /** The HTTP status for this error. */
  get status(): BridgeErrorStatus {
    return BRIDGE_ERROR_STATUS[this.code];
  }
}
