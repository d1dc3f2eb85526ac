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
} as const;
/** Machine-readable kinds of {@link BridgeError}. */
export type BridgeErrorCode = (typeof BridgeErrorCode)[keyof typeof BridgeErrorCode];

/** The HTTP status each error code maps to when it ends a request. */
export const BRIDGE_ERROR_STATUS: Readonly<Record<BridgeErrorCode, 400 | 404 | 500 | 503>> = {
  invalid_options: 500,
  too_many_sessions: 503,
  invalid_session_name: 400,
  unknown_session: 404,
  spawn_failed: 500,
  closing: 503,
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
  get status(): 400 | 404 | 500 | 503 {
    return BRIDGE_ERROR_STATUS[this.code];
  }
}
