/**
 * WebSocket close codes the bridge uses. 4000-4999 are application codes; their reason is a JSON
 * object (at most 123 bytes, the WebSocket limit) such as `{"reason":"exit","exitCode":1}`.
 */
export const BridgeCloseCode = {
  /** The bridge is shutting down (`{"reason":"shutdown"}`). */
  GoingAway: 1001,
  /** A binary message: records are text (one JSONL record per message). */
  UnsupportedData: 1003,
  /** The message rate limit was exceeded. */
  PolicyViolation: 1008,
  /** A message exceeded `maxRecordBytes`. */
  MessageTooBig: 1009,
  /** Internal failure, for example pi could not be spawned. */
  InternalError: 1011,
  /** The client stayed over the high-water mark past `stallTimeoutMs`, or pi's input backed up: reattach and resync. */
  TryAgainLater: 1013,
  /** pi exited: `{"reason":"exit","exitCode":n|null,"signal":s|null,"stderrTail":"…"}` (the tail trimmed to fit). */
  PiExited: 4000,
  /** The session was closed through the API or reaped: `{"reason":"closed"|"idle","exitCode":…}`. */
  SessionClosed: 4001,
  /** Another connection attached to the same session: `{"reason":"replaced"}`. */
  Replaced: 4002,
} as const;
/** A close code of {@link BridgeCloseCode}. */
export type BridgeCloseCode = (typeof BridgeCloseCode)[keyof typeof BridgeCloseCode];

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
