/**
 * The reason text of a bridge's close: for its application codes (4000-4999), and for 1008, 1009
 * and 1013, a compact JSON object within the WebSocket limit of 123 bytes, such as
 * `{"reason":"exit","exitCode":1}` or `{"reason":"...","code":"ticket_expired"}`.
 */

/** The fields a bridge's close reason may carry; any of them may be absent. */
export interface BridgeCloseReason {
  /** What happened, in words, or a keyword such as `exit` or `too_big`. */
  readonly reason?: string;
  /** The typed code of a refusal (`wrong_token`, `ticket_expired`, `too_many_sessions`, ...). */
  readonly code?: string;
  /** pi's exit code, when pi exited (4000, 4001). */
  readonly exitCode?: number | null;
  /** The signal that ended pi, when one did. */
  readonly signal?: string | null;
  /** The end of pi's stderr, trimmed to fit. */
  readonly stderrTail?: string;
  /** The byte limit a too-big message exceeded (1009). */
  readonly max?: number;
}

/** Reads a close reason's fields; an empty object for a reason that is not the bridge's JSON. */
export function parseCloseReason(text: string): BridgeCloseReason {
  if (!text.startsWith("{")) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof parsed !== "object" || parsed === null) return {};
  const fields = parsed as Record<string, unknown>;
  const reason: { -readonly [K in keyof BridgeCloseReason]: BridgeCloseReason[K] } = {};
  if (typeof fields.reason === "string") reason.reason = fields.reason;
  if (typeof fields.code === "string") reason.code = fields.code;
  if (typeof fields.exitCode === "number" || fields.exitCode === null)
    reason.exitCode = fields.exitCode;
  if (typeof fields.signal === "string" || fields.signal === null) reason.signal = fields.signal;
  if (typeof fields.stderrTail === "string") reason.stderrTail = fields.stderrTail;
  if (typeof fields.max === "number") reason.max = fields.max;
  return reason;
}

/** The most UTF-8 bytes a WebSocket close reason may have. */
export const MAX_CLOSE_REASON_BYTES = 123;

/**
 * A close reason as compact JSON within 123 bytes. `trim` (the stderr tail) loses its oldest
 * characters first; everything else is short by construction.
 */
export function closeReason(fields: Record<string, unknown>, trim?: string): string {
  const encoder = new TextEncoder();
  const fits = (text: string): boolean => encoder.encode(text).length <= MAX_CLOSE_REASON_BYTES;
  const base = JSON.stringify(fields);
  if (trim === undefined || trim === "") return base;
  let tail = trim;
  let text = JSON.stringify({ ...fields, stderrTail: tail });
  // Halve, then creep: the reason is tiny, so this converges in a few steps.
  while (!fits(text) && tail.length > 0) {
    const over = encoder.encode(text).length - MAX_CLOSE_REASON_BYTES;
    tail = tail.slice(Math.max(1, Math.min(over, tail.length)));
    text = JSON.stringify({ ...fields, stderrTail: tail });
  }
  return fits(text) ? text : base;
}

/**
 * The reason of a refusal's close, `{"reason": ..., "code": ...}` within 123 bytes: the code is
 * kept whole, the words are cut (with `…`) when they do not fit.
 */
export function refusalReason(reason: string, code: string): string {
  const encoder = new TextEncoder();
  let words = reason;
  let text = JSON.stringify({ reason: words, code });
  while (encoder.encode(text).length > MAX_CLOSE_REASON_BYTES && words.length > 0) {
    words = words.slice(0, -1);
    text = JSON.stringify({ reason: `${words.trimEnd()}…`, code });
  }
  return text;
}

/** The reason of a 1009 close: a message over `max` UTF-8 bytes, the same on every runtime. */
export function tooBigReason(max: number): string {
  return closeReason({ reason: "too_big", max });
}
