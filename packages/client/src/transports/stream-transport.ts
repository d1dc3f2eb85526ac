import { lineSink, pumpFrames, settlesWithin } from "./frames.ts";
import type { Transport, TransportCloseInfo } from "./transport.ts";

/** How long `close()` waits for pending writes to drain before it aborts the writable. */
const CLOSE_DRAIN_MS = 1000;

/** Options for {@link createStreamTransport}. */
export interface StreamTransportOptions {
  /** Bytes (or text) from pi: JSONL, split anywhere. */
  readonly readable: ReadableStream<Uint8Array | string>;
  /** Bytes to pi; each record is written as one UTF-8 chunk. */
  readonly writable: WritableStream<Uint8Array>;
  /** Largest inbound record in UTF-8 bytes; a larger one becomes a `record_too_large` frame. Defaults to 64 MiB. */
  readonly maxRecordBytes?: number;
  /** Releases the underlying channel (a socket, a process) once the transport has closed for good. */
  readonly close?: () => void | Promise<void>;
}

/**
 * A transport over any `ReadableStream`/`WritableStream` pair: a Unix or TCP socket, a pipe, an
 * in-memory `TransformStream` pair. Web standards only, so it runs in every runtime.
 *
 * `closed` settles with `eof` when the readable ends, `error` when either side fails, and
 * `closed` after {@link Transport.close}, which closes the writable and cancels the readable.
 *
 * @example
 * ```ts
 * // Deno: pi behind `socat UNIX-LISTEN:/tmp/pi.sock EXEC:"pi --mode rpc"`
 * const conn = await Deno.connect({ transport: "unix", path: "/tmp/pi.sock" });
 * const transport = createStreamTransport({ readable: conn.readable, writable: conn.writable });
 * ```
 */
export function createStreamTransport(options: StreamTransportOptions): Transport {
  const frames = pumpFrames(options.readable, options.maxRecordBytes);
  // A failed write (a reset socket) ends the channel, as a failed read does.
  const sink = lineSink(options.writable, (error) => void finish({ reason: "error", error }));
  let settle!: (info: TransportCloseInfo) => void;
  let settled = false;
  const closed = new Promise<TransportCloseInfo>((resolve) => {
    settle = resolve;
  });

  // Runs once, whichever way the channel ends. A peer that ended or failed is reported at once;
  // a local close first lets pending writes drain, so `close()` resolves with the channel released.
  const finish = async (info: TransportCloseInfo): Promise<void> => {
    if (settled) return;
    settled = true;
    frames.stop();
    if (info.reason !== "closed") settle(info);
    if (!(await settlesWithin(sink.closeTarget(), CLOSE_DRAIN_MS))) sink.abortTarget();
    try {
      await options.close?.();
    } catch {
      // The channel is closed either way; a failing release hook must not hide why it closed.
    }
    settle(info);
  };

  frames.ended.then((end) => {
    void finish(end.failed ? { reason: "error", error: end.error } : { reason: "eof" });
  });

  function close(): Promise<TransportCloseInfo> {
    void finish({ reason: "closed" });
    return closed;
  }

  return { readable: frames.readable, writable: sink.writable, closed, close };
}
