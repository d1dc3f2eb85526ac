/** Machine-readable kinds of {@link ProtocolError}. */
export const ProtocolErrorCode = {
  /** A record exceeded `maxRecordBytes`; the framer skipped to the next LF. */
  RecordTooLarge: "record_too_large",
  /** A record was not valid JSON. */
  InvalidJson: "invalid_json",
  /** A record was valid JSON but not an object with a string `type`. */
  NotAnObject: "not_an_object",
  /** A record had a known `type` but a shape that does not match it. */
  InvalidShape: "invalid_shape",
  /** An outbound command failed validation and was not sent. */
  InvalidCommand: "invalid_command",
  /** A value cannot be encoded as a record pi accepts (for example a top-level `null`). */
  Unencodable: "unencodable",
} as const;
/** Machine-readable kinds of {@link ProtocolError}. */
export type ProtocolErrorCode = (typeof ProtocolErrorCode)[keyof typeof ProtocolErrorCode];

/** Options for {@link ProtocolError}. */
export interface ProtocolErrorOptions {
  /** The raw record text (possibly truncated for oversized records). */
  raw?: string;
  /** The underlying error, for example a `SyntaxError` from `JSON.parse`. */
  cause?: unknown;
  /** Extra structured detail (for example the offending field). */
  detail?: Readonly<Record<string, unknown>>;
}

/**
 * A record that could not be framed, parsed, validated or encoded.
 * It is returned or reported as a value, never allowed to crash the reader.
 */
export class ProtocolError extends Error {
  /** What went wrong. */
  readonly code: ProtocolErrorCode;
  /** The raw record text, when there is one. */
  readonly raw: string | undefined;
  /** Extra structured detail. */
  readonly detail: Readonly<Record<string, unknown>> | undefined;

  constructor(code: ProtocolErrorCode, message: string, options: ProtocolErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ProtocolError";
    this.code = code;
    this.raw = options.raw;
    this.detail = options.detail;
  }
}
