import type { TransportFrame, TransportFrames } from "../../src/index.ts";

/** A reader that hands out a transport's frames one at a time, whatever batches they came in. */
export interface FrameReader {
  read(): Promise<ReadableStreamReadResult<TransportFrame>>;
  /** Reads records until `predicate` matches one, and returns it parsed; rejects if the stream ends first. */
  until(predicate: (record: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** Reads to the end, so the peer never blocks on a full pipe. */
  drain(): Promise<void>;
  cancel(reason?: unknown): Promise<void>;
  releaseLock(): void;
}

/** Locks `readable` and reads it frame by frame, for tests that think in records. */
export function frameReader(readable: ReadableStream<TransportFrames>): FrameReader {
  const reader = readable.getReader();
  const queued: TransportFrame[] = [];
  const read = async (): Promise<ReadableStreamReadResult<TransportFrame>> => {
    while (queued.length === 0) {
      const result = await reader.read();
      if (result.done) return { done: true, value: undefined };
      queued.push(...result.value);
    }
    return { done: false, value: queued.shift() as TransportFrame };
  };
  return {
    read,
    async until(predicate) {
      for (;;) {
        const { done, value } = await read();
        if (done) throw new Error("the stream ended first");
        if (typeof value !== "string") continue;
        const record = JSON.parse(value) as Record<string, unknown>;
        if (predicate(record)) return record;
      }
    },
    async drain() {
      while (!(await read()).done) {
        // Nothing to keep: the point is to read.
      }
    },
    cancel: (reason) => reader.cancel(reason),
    releaseLock: () => reader.releaseLock(),
  };
}
