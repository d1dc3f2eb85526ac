/**
 * WebSocket close codes the bridge uses: the one table lives in the client, which reads them.
 * 4000-4999 are application codes; their reason is a JSON object (at most 123 bytes, the
 * WebSocket limit) such as `{"reason":"exit","exitCode":1}`.
 */
export { BridgeCloseCode } from "@pi-kit/client";

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

/** The reason of a 1009 close: a message over `max` UTF-8 bytes, the same on every runtime. */
export function tooBigReason(max: number): string {
  return closeReason({ reason: "too_big", max });
}
