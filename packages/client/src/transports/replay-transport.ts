import { parseTranscript, type TranscriptEntry } from "@pi-kit/protocol";
import type { Transport, TransportCloseInfo, TransportFrames } from "./transport.ts";

/** Options for {@link createReplayTransport}. */
export interface ReplayOptions {
  /** Playback speed: 1 is real time, 2 twice as fast, `Infinity` as fast as possible. Defaults to 1. */
  readonly speed?: number;
  /** Stops the playback and closes the transport (`reason: "closed"`, the abort reason as `error`). */
  readonly signal?: AbortSignal;
  /**
   * Holds back the records that followed an `out` record until the client has written as many
   * records, so a response never arrives before its request. Defaults to `true`.
   */
  readonly waitForWrites?: boolean;
  /**
   * Rewrites recorded command ids in the played records to the ids the client actually used,
   * matching the n-th write to the n-th recorded `out` record. Defaults to `true`.
   */
  readonly matchIds?: boolean;
  /** Keeps the transport open after the last record instead of ending it with `eof`. Defaults to `false`. */
  readonly keepOpen?: boolean;
}

/** A {@link Transport} that plays a transcript; it also shows what the client wrote. */
export interface ReplayTransport extends Transport {
  /** The records the client wrote, without their LF, in order. */
  readonly written: readonly string[];
  /** The transcript's `out` records: what the recorded client wrote, to compare with {@link written}. */
  readonly expected: readonly string[];
}

/**
 * Plays a recorded conversation (see `parseTranscript`) as if pi were sending it: each `in` record
 * arrives at its recorded time, scaled by `speed`. Writes are accepted and kept in `written`.
 * For tests, demos and bug reports; record one with `recordTransport`.
 *
 * @example
 * ```ts
 * const transport = createReplayTransport(await Deno.readTextFile("bug.jsonl"), { speed: 4 });
 * ```
 */
export function createReplayTransport(
  transcript: readonly TranscriptEntry[] | string,
  options: ReplayOptions = {},
): ReplayTransport {
  const entries = typeof transcript === "string" ? parseTranscript(transcript) : transcript;
  const speed = options.speed ?? 1;
  if (!(speed > 0)) throw new RangeError(`speed must be positive, got ${speed}`);
  const waitForWrites = options.waitForWrites ?? true;
  const matchIds = options.matchIds ?? true;
  const expected = entries.filter((entry) => entry.dir === "out").map((entry) => entry.record);
  const written: string[] = [];
  /** Recorded id (as JSON, so `1` and `"1"` differ) to the id the client used instead. */
  const ids = new Map<string, unknown>();

  let controller!: ReadableStreamDefaultController<TransportFrames>;
  const readable = new ReadableStream<TransportFrames>({
    start(c) {
      controller = c;
    },
    cancel() {
      finish({ reason: "closed" });
    },
  });

  let settle!: (info: TransportCloseInfo) => void;
  const closed = new Promise<TransportCloseInfo>((resolve) => {
    settle = resolve;
  });
  let stopped = false;
  const onAbort = (): void => finish({ reason: "closed", error: options.signal?.reason });

  // One pending wait at a time (the playback loop's); a write or a stop wakes it early.
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const nap = (ms?: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(notify, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  function finish(info: TransportCloseInfo): void {
    if (stopped) return;
    stopped = true;
    options.signal?.removeEventListener("abort", onAbort);
    notify();
    try {
      controller.close();
    } catch {
      // Already cancelled by the reader.
    }
    settle(info);
  }

  function rewrite(record: string): string {
    if (ids.size === 0 || !record.includes('"id"')) return record;
    const value = parseObject(record);
    if (value === undefined || !("id" in value)) return record;
    const key = JSON.stringify(value.id);
    return ids.has(key) ? JSON.stringify({ ...value, id: ids.get(key) }) : record;
  }

  async function play(): Promise<void> {
    let anchorWall = performance.now();
    let anchorT = 0;
    let outs = 0;
    let lastOutT = 0;
    // Records that are due together (all of them at infinite speed) go out as one batch.
    let batch: string[] = [];
    const flush = (): void => {
      if (batch.length > 0 && !stopped) controller.enqueue(batch);
      batch = [];
    };
    for (const entry of entries) {
      if (entry.dir === "out") {
        outs++;
        lastOutT = entry.t;
        continue;
      }
      if (waitForWrites && written.length < outs) {
        flush();
        while (!stopped && written.length < outs) await nap();
        // The rest plays relative to when the request really came, not when it was recorded.
        anchorWall = performance.now();
        anchorT = lastOutT;
      }
      const due = anchorWall + (entry.t - anchorT) / speed;
      for (
        let left = due - performance.now();
        !stopped && left > 0;
        left = due - performance.now()
      ) {
        flush();
        await nap(left);
      }
      if (stopped) return;
      batch.push(rewrite(entry.record));
    }
    flush();
    if (!options.keepOpen) finish({ reason: "eof" });
  }

  const writable = new WritableStream<string>({
    write(line) {
      if (stopped) throw new Error("The replay transport is closed");
      const record = line.endsWith("\n") ? line.slice(0, -1) : line;
      const index = written.push(record) - 1;
      const recorded = expected[index];
      if (matchIds && recorded !== undefined) {
        const was = parseObject(recorded);
        const now = parseObject(record);
        if (was !== undefined && now !== undefined && "id" in was && "id" in now) {
          const key = JSON.stringify(was.id);
          if (key !== JSON.stringify(now.id)) ids.set(key, now.id);
        }
      }
      notify();
    },
  });

  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener("abort", onAbort, { once: true });
  void play();

  return {
    readable,
    writable,
    closed,
    close() {
      finish({ reason: "closed" });
      return closed;
    },
    written,
    expected,
  };
}

/** The record as an object, or `undefined` when it is not a JSON object. */
function parseObject(record: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(record);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
