/** Machine-readable kinds of {@link SessionHistoryError}. */
export const SessionHistoryErrorCode = {
  /** The request was malformed: a bad session name, title, page size or cursor (HTTP 400). */
  InvalidRequest: "invalid_request",
  /** The token is missing or wrong (401). */
  Unauthorized: "unauthorized",
  /** The page's origin is not allowed (403). */
  Forbidden: "forbidden",
  /** No session has that name (404). */
  NotFound: "not_found",
  /** The session cannot do that now: its files cannot be read, or its pi is not running (409). */
  Conflict: "conflict",
  /** Too much: a file or a session's uploads past the host's limit (413). `hostCode` says which. */
  TooLarge: "too_large",
  /** Too many at once: more unfinished uploads than the host allows (429). */
  RateLimited: "rate_limited",
  /** The host cannot take it now: too many sessions, closing, or pi did not answer (502-504). */
  Unavailable: "unavailable",
  /** The host failed (500), or answered with a status this client does not know. */
  ServerError: "server_error",
  /** The host could not be reached. */
  Network: "network",
  /** The host answered with something that is not the history API's JSON. */
  BadResponse: "bad_response",
  /** The call's `AbortSignal` fired. */
  Cancelled: "cancelled",
} as const;
/** Machine-readable kinds of {@link SessionHistoryError}. */
export type SessionHistoryErrorCode =
  (typeof SessionHistoryErrorCode)[keyof typeof SessionHistoryErrorCode];

/** Options for {@link SessionHistoryError}. */
export interface SessionHistoryErrorOptions {
  /** The HTTP status, when the host answered. */
  status?: number;
  /** The host's own error code, e.g. the bridge's `too_many_sessions`. */
  hostCode?: string;
  /** The other fields of the host's error answer, e.g. an upload's status with `upload_offset_mismatch`. */
  details?: Readonly<Record<string, unknown>>;
  /** The underlying error or abort reason. */
  cause?: unknown;
}

/**
 * The one error type a `SessionHistory` rejects with. Switch on `code`.
 * @example
 * try { await history.rename(name, title); } catch (e) { if (e instanceof SessionHistoryError && e.code === "not_found") refresh(); }
 */
export class SessionHistoryError extends Error {
  /** What went wrong. */
  readonly code: SessionHistoryErrorCode;
  /** The HTTP status, when the host answered. */
  readonly status: number | undefined;
  /** The host's own error code, when it gave one. */
  readonly hostCode: string | undefined;
  /** The other fields of the host's error answer, when it gave more than a message and a code. */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: SessionHistoryErrorCode,
    message: string,
    options: SessionHistoryErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SessionHistoryError";
    this.code = code;
    this.status = options.status;
    this.hostCode = options.hostCode;
    this.details = options.details;
  }
}

/** The error code for an HTTP status. */
export function codeForStatus(status: number): SessionHistoryErrorCode {
  if (status === 400 || status === 422) return SessionHistoryErrorCode.InvalidRequest;
  if (status === 401) return SessionHistoryErrorCode.Unauthorized;
  if (status === 403) return SessionHistoryErrorCode.Forbidden;
  if (status === 404) return SessionHistoryErrorCode.NotFound;
  if (status === 409) return SessionHistoryErrorCode.Conflict;
  if (status === 413) return SessionHistoryErrorCode.TooLarge;
  if (status === 429) return SessionHistoryErrorCode.RateLimited;
  if (status >= 502 && status <= 504) return SessionHistoryErrorCode.Unavailable;
  return SessionHistoryErrorCode.ServerError;
}
