/** Kinds of problems the client reports instead of throwing or swallowing them. */
export type PiClientDiagnosticKind =
  /** A response arrived for a call that had already timed out or been cancelled; it was dropped. */
  | "late_response"
  /** A response carried an id no call of this client ever used; it was dropped. */
  | "unmatched_response"
  /** A failure response without an id (parse error, 0.73.x unknown command). */
  | "idless_failure"
  /** A record that could not be framed or parsed, or had an unexpected shape. */
  | "protocol_error"
  /** A well-formed record of a type this client does not know; it was ignored. */
  | "unknown_record"
  /** An event listener threw; the other listeners still ran. */
  | "listener_error"
  /** An extension dialog handler threw or rejected; the dialog was cancelled. */
  | "dialog_handler_error"
  /** An async event iterator dropped its oldest events because its buffer was full. */
  | "iterator_overflow"
  /** Writing to the transport failed. */
  | "write_error"
  /** A run was settled from `get_state` because pi never announced its end (see `RunOutcome.inferred`). */
  | "unannounced_run_end"
  /** Resynchronising the session after a reconnect failed; the next reconnect tries again. */
  | "resync_failed"
  /** A raw `send` of a command type this client does not know went to pi as it was. */
  | "unknown_command";

/** One reported problem. Subscribe with `client.on("diagnostic", listener)`. */
export interface PiClientDiagnostic {
  /** What happened. */
  readonly kind: PiClientDiagnosticKind;
  /** A human-readable description. */
  readonly message: string;
  /** The underlying error, if any. */
  readonly error?: unknown;
  /** The offending record or value, if any. */
  readonly record?: unknown;
}

/** A sink for diagnostics, passed to the client's internal parts. */
export type DiagnosticSink = (diagnostic: PiClientDiagnostic) => void;
