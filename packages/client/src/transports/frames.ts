/**
 * Internal plumbing shared by the transports: bytes in, frames out, and strings in, bytes out.
 * Web standards only, so every transport (and every runtime) frames records the same way.
 */
import { JsonlDecoder, type JsonlFrame } from "@pi-kit/protocol";
import type { TransportFrame, TransportFrames } from "./transport.ts";

/** How a frame source ended: cleanly (`failed: false`), or with the `error` that ended it. */
export type SourceEnd = { readonly error?: unknown; readonly failed: boolean };

/** Inbound frames decoded eagerly from a byte (or text) source. */
export interface FramePump {
  /** The decoded frames, one batch per source chunk, for the transport's `readable`. */
  readonly readable: ReadableStream<TransportFrames>;
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
 *
 * With `highWaterMark` (opt-in), reading is paced instead: once that many frames (not batches)
 * wait unread in `readable`, the source is not read again until the consumer catches up, so a
 * relay (the bridge) can push back on pi through the pipe rather than buffer without bound.
 */
export function pumpFrames(
  source: ReadableStream<Uint8Array | string>,
  maxRecordBytes: number | undefined,
  highWaterMark?: number,
): FramePump {
  // Decoded here rather than through a JsonlDecoderStream, and handed on as one batch per chunk:
  // a stream hop (read request, promise, microtask) per record would cost more than the parse.
  const decoder = new JsonlDecoder(maxRecordBytes === undefined ? {} : { maxRecordBytes });
  const reader = source.getReader();
  let batch: TransportFrame[] = [];
  const emit = (frame: JsonlFrame): void => {
    batch.push(frame);
  };
  const flush = (): void => {
    if (open && batch.length > 0) controller.enqueue(batch);
    batch = [];
  };
  let controller!: ReadableStreamDefaultController<TransportFrames>;
  let open = true;
  const paced = highWaterMark !== undefined;
  // Paced mode reads the source only while the consumer wants more: `pull` (a read request, or a
  // queue below the high-water mark) sets `demand`; a full queue clears it.
  let demand = true;
  let wake: (() => void) | undefined;
  const finish = (): void => {
    if (!open) return;
    open = false;
    try {
      controller.close();
    } catch {
      // Already closed or errored by a cancel from the consumer.
    }
  };
  const readable = new ReadableStream<TransportFrames>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        demand = true;
        wake?.();
        wake = undefined;
      },
      cancel(reason) {
        open = false;
        wake?.();
        return reader.cancel(reason);
      },
    },
    paced ? { highWaterMark, size: (frames) => frames.length } : undefined,
  );
  const ended = (async (): Promise<SourceEnd> => {
    try {
      for (;;) {
        while (paced && open && !demand) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        }
        const { done, value } = await reader.read();
        if (done) {
          decoder.finish(emit, emit);
          flush();
          return { failed: false };
        }
        decoder.scan(value, emit, emit);
        flush();
        if (paced && (controller.desiredSize ?? 0) <= 0) demand = false;
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
      wake?.();
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
