import type { TransportFrame, TransportFrames } from "../src/index.ts";

/** A reader that hands out a transport's frames one at a time, whatever batches they came in. */
export interface FrameReader {
  read(): Promise<ReadableStreamReadResult<TransportFrame>>;
  cancel(reason?: unknown): Promise<void>;
  releaseLock(): void;
}

/** Locks `readable` and reads it frame by frame, for tests that think in records. */
export function frameReader(readable: ReadableStream<TransportFrames>): FrameReader {
  const reader = readable.getReader();
  const queued: TransportFrame[] = [];
  return {
    async read() {
      while (queued.length === 0) {
        const result = await reader.read();
        if (result.done) return { done: true, value: undefined };
        queued.push(...result.value);
      }
      return { done: false, value: queued.shift() as TransportFrame };
    },
    cancel: (reason) => reader.cancel(reason),
    releaseLock: () => reader.releaseLock(),
  };
}
