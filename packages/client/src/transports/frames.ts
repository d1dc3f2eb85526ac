/**
 * Internal plumbing shared by the transports: bytes in, frames out, and strings in, bytes out.
 * Web standards only, so every transport (and every runtime) frames records the same way.
 */
import { JsonlDecoderStream } from "@pi-kit/protocol";
import type { TransportFrame } from "./transport.ts";

/** How a frame source ended: cleanly (`failed: false`), or with the `error` that ended it. */
export type SourceEnd = { readonly error?: unknown; readonly failed: boolean };

/** Inbound frames decoded eagerly from a byte (or text) source. */
export interface FramePump {
  /** The decoded frames, for the transport's `readable`. */
  readonly readable: ReadableStream<TransportFrame>;
  /** Settles once the source has ended, failed or been stopped. Never rejects. */
  readonly ended: Promise<SourceEnd>;
  /** Stops reading: cancels the source and ends `readable` (frames already queued stay readable). */
  stop(reason?: unknown): void;
}

/**
 * Decodes `source` into frames, reading it eagerly rather than on demand.
 *
 * Eager reading is deliberate: end of input is then noticed (and `closed` settles) even while
 * nobody reads the frames, and pi never blocks on a full stdout pipe. A client that reads its
 * frames continuously (as it must, pi's events are unsolicited) keeps memory bounded.
 */
export function pumpFrames(
  source: ReadableStream<Uint8Array | string>,
  maxRecordBytes: number | undefined,
): FramePump {
  const decoder =
    maxRecordBytes === undefined
      ? new JsonlDecoderStream()
      : new JsonlDecoderStream({ maxRecordBytes });
  const reader = source.pipeThrough(decoder).getReader();
  let controller!: ReadableStreamDefaultController<TransportFrame>;
  let open = true;
  const finish = (): void => {
    if (!open) return;
    open = false;
    try {
      controller.close();
    } catch {
      // Already closed or errored by a cancel from the consumer.
    }
  };
  const readable = new ReadableStream<TransportFrame>({
    start(c) {
      controller = c;
    },
    cancel(reason) {
      open = false;
      return reader.cancel(reason);
    },
  });
  const ended = (async (): Promise<SourceEnd> => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return { failed: false };
        if (open) controller.enqueue(value);
      }
    } catch (error) {
      return { failed: true, error };
    } finally {
      finish();
    }
  })();
  return {
    readable,
    ended,
    stop(reason) {
      finish();
      reader.cancel(reason).catch(() => {
        // The source may already have failed; `ended` reports that.
      });
    },
  };
}

/** Outbound records as a `WritableStream<string>`, encoded to UTF-8 onto a byte sink. */
export interface LineSink {
  /** The transport's `writable`. */
  readonly writable: WritableStream<string>;
  /** Closes the byte sink after the writes already handed to it; resolves once closed. */
  closeTarget(): Promise<void>;
  /** Aborts the byte sink, for when the other end is gone. */
  abortTarget(reason?: unknown): void;
}

/**
 * Wraps a byte sink so the transport can close it even while the client holds a writer on the
 * outer `writable` (a locked stream cannot be closed by anyone else).
 * Writes are serialised by the outer stream itself: one record reaches the sink at a time.
 * A record without its trailing LF gets one, so a caller cannot glue two records together.
 */
export function lineSink(
  target: WritableStream<Uint8Array>,
  onWriteError?: (error: unknown) => void,
): LineSink {
  const writer = target.getWriter();
  const encoder = new TextEncoder();
  let targetClosed: Promise<void> | undefined;
  const writable = new WritableStream<string>({
    async write(record) {
      const line = record.endsWith("\n") ? record : `${record}\n`;
      try {
        await writer.write(encoder.encode(line));
      } catch (error) {
        onWriteError?.(error);
        throw error;
      }
    },
    close() {
      return closeTarget();
    },
    abort(reason) {
      abortTarget(reason);
    },
  });
  function closeTarget(): Promise<void> {
    targetClosed ??= writer.close().catch(() => {
      // Closing a sink whose reader is gone fails; the channel is closed either way.
    });
    return targetClosed;
  }
  function abortTarget(reason?: unknown): void {
    targetClosed ??= Promise.resolve();
    writer.abort(reason).catch(() => {
      // Aborting an already errored sink rejects; nothing is left to release.
    });
  }
  return { writable, closeTarget, abortTarget };
}

/** Resolves `true` when `promise` settles within `ms`, else `false`; the timer never outlives it. */
export function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const done = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    promise.then(done, done);
  });
}
