/**
 * The typed codes a bridge refuses or fails with: in an HTTP error body `{"error", "code"}`, in the
 * `Pi-Kit-Error-Code` header of a refused upgrade, and in a close reason's `code`. Branch on the
 * code, never on the words.
 */

/** What went wrong, as a bridge reports it (its `BridgeError`s carry the same codes). */
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
  /** A request without a token or ticket (a 401, close 4401). */
  MissingToken: "missing_token",
  /** A token that is neither the bridge's nor a ticket it accepts the shape of (a 401, close 4401). */
  WrongToken: "wrong_token",
  /** The page's Origin is not one the bridge allows (a 403, close 4403). */
  OriginNotAllowed: "origin_not_allowed",
  /** A plain HTTP request to a WebSocket route (a 426). */
  UpgradeRequired: "upgrade_required",
  /** The runtime could not complete the WebSocket handshake (a 400: the reason has its words). */
  UpgradeFailed: "upgrade_failed",
  /** The bridge failed in a way it did not expect (a 500; the log has the detail). */
  Internal: "internal_error",
  /** Another live bridge holds the sessions directory (a bridge that cannot start). */
  SessionsDirInUse: "sessions_dir_in_use",
  /** A revert or restore by a caller that is not the session's controlling socket (a 403). */
  NotController: "not_controller",
  /** A revert or restore while pi is in a run (a 409: wait for the run to end). */
  RunInProgress: "run_in_progress",
  /** A file path that is not a relative path inside the workspace (a 400). */
  InvalidPath: "invalid_path",
  /** No checkpoint of the session has that id (a 404). */
  UnknownCheckpoint: "unknown_checkpoint",
  /** The bridge keeps no checkpoints (`--no-checkpoints`), or none of this session (a 404). */
  CheckpointsOff: "checkpoints_off",
  /** A revert or restore that needs a file over the checkpoint size cap, never snapshotted (a 409; nothing changed). */
  TooLargeToRestore: "too_large_to_restore",
  /** A file search query that is too long, has control characters, or reaches out of the workspace (a 400). */
  InvalidQuery: "invalid_query",
  /** A pairing ticket or code that was already used: each opens one device, once (a 401). */
  PairingUsed: "pairing_used",
  /** A pairing ticket or code past its minute (a 401: make a new one on the first device). */
  PairingExpired: "pairing_expired",
  /** A pairing ticket or code the bridge never gave out (a 401). */
  PairingUnknown: "pairing_unknown",
  /** The bridge takes no uploads (`--no-uploads`), or not for this workspace (a 404). */
  UploadsOff: "uploads_off",
  /** An upload larger than the per-file limit (a 413). */
  UploadTooLarge: "upload_too_large",
  /** An upload that would take the session past its byte limit (a 413). */
  UploadQuotaExceeded: "upload_quota_exceeded",
  /** More unfinished uploads at once than one message may carry (a 429). */
  TooManyUploads: "too_many_uploads",
  /** No upload of the session has that id (a 404). */
  UnknownUpload: "unknown_upload",
  /** A chunk sent at another offset than the bridge's copy ends at, or past the size (a 409; the body has the status). */
  UploadOffsetMismatch: "upload_offset_mismatch",
} as const;
/** What went wrong, as a bridge reports it (its `BridgeError`s carry the same codes). */
export type BridgeErrorCode = (typeof BridgeErrorCode)[keyof typeof BridgeErrorCode];

/** An HTTP status the bridge answers errors with. */
export type BridgeErrorStatus =
  | 400
  | 401
  | 403
  | 404
  | 409
  | 413
  | 426
  | 429
  | 500
  | 502
  | 503
  | 504;

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
  missing_token: 401,
  wrong_token: 401,
  origin_not_allowed: 403,
  upgrade_required: 426,
  upgrade_failed: 400,
  internal_error: 500,
  sessions_dir_in_use: 409,
  not_controller: 403,
  run_in_progress: 409,
  invalid_path: 400,
  unknown_checkpoint: 404,
  checkpoints_off: 404,
  too_large_to_restore: 409,
  invalid_query: 400,
  pairing_used: 401,
  pairing_expired: 401,
  pairing_unknown: 401,
  uploads_off: 404,
  upload_too_large: 413,
  upload_quota_exceeded: 413,
  too_many_uploads: 429,
  unknown_upload: 404,
  upload_offset_mismatch: 409,
};

/** Why a ticket was refused (a 401, close 4401) or a request it does not allow (a 403, close 4403). */
export const TicketRefusal = {
  /** `exp` has passed. */
  Expired: "ticket_expired",
  /** `nbf` is in the future (a future `iat` alone is accepted). */
  NotYetValid: "ticket_not_yet_valid",
  /** The signature does not verify, or the algorithm is not one the bridge accepts (`none`). */
  BadSignature: "ticket_bad_signature",
  /** `aud` (or `iss`) is not the bridge's. */
  WrongAudience: "ticket_wrong_audience",
  /** Not a JWT, or a claim is missing or of the wrong type. */
  Malformed: "ticket_malformed",
  /** A 403: the session is not one the ticket names. */
  NotInTicket: "session_not_in_ticket",
  /** A 403: a read-only ticket tried to change something. */
  ReadOnly: "ticket_read_only",
} as const;
/** Why a ticket was refused (a 401, close 4401) or a request it does not allow (a 403, close 4403). */
export type TicketRefusal = (typeof TicketRefusal)[keyof typeof TicketRefusal];

/**
 * The response header that repeats a refusal's `code`: Node's server answers a refused WebSocket
 * upgrade with headers only, so a plain client reads the code there.
 */
export const REFUSAL_CODE_HEADER = "Pi-Kit-Error-Code";

/** The body of every error answer of a bridge's HTTP API. */
export interface BridgeErrorBody {
  /** What went wrong and what to do, in words for people. */
  readonly error: string;
  /** What went wrong, for code to branch on. */
  readonly code: BridgeErrorCode | TicketRefusal;
}
