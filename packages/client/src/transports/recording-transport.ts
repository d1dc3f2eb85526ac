import type { TranscriptEntry } from "@pi-kit/protocol";
import type { Transport, TransportFrames } from "./transport.ts";

/** Options for {@link recordTransport}. */
export interface RecordOptions {
  /** The clock, in milliseconds; defaults to `performance.now`. Entries count from the wrap. */
  readonly now?: () => number;
}

/**
 * Wraps a transport and reports every record that passes, both ways, as a transcript entry: the
 * input of `createReplayTransport` and the thing to attach to a bug report. Framing errors are
 * not recorded (their record is gone), and a throwing `sink` never breaks the session.
 * Everything else (`closed`, `close()`, a child's `pid`) is the wrapped transport's own.
 *
 * @example
 * ```ts
 * const lines: string[] = [];
 * const transport = recordTransport(await spawnPi(), (entry) => lines.push(formatTranscriptEntry(entry)));
 * // later: await Deno.writeTextFile("bug.jsonl", lines.join(""));
 * ```
 */
export function recordTransport<T extends Transport>(
  transport: T,
  sink: (entry: TranscriptEntry) => void,
  options: RecordOptions = {},
): T {
  const now = options.now ?? (() => performance.now());
  const start = now();
  const emit = (dir: TranscriptEntry["dir"], record: string): void => {
    try {
      sink({ t: Math.round(now() - start), dir, record });
    } catch {
      // A broken recorder must not take the session down with it.
    }
  };
  const readable = transport.readable.pipeThrough(
    new TransformStream<TransportFrames, TransportFrames>({
      transform(frames, controller) {
        for (const frame of frames) if (typeof frame === "string") emit("in", frame);
        controller.enqueue(frames);
      },
    }),
  );
  const writer = transport.writable.getWriter();
  const writable = new WritableStream<string>({
    write(line) {
      // Recorded before it is sent, so the replies it causes always come after it.
      emit("out", line.endsWith("\n") ? line.slice(0, -1) : line);
      return writer.write(line);
    },
    close() {
      return writer.close();
    },
    abort(reason) {
      return writer.abort(reason);
    },
  });
  // A proxy rather than a copy, so class-based transports keep their methods and private state.
  return new Proxy(transport, {
    get(target, key) {
      if (key === "readable") return readable;
      if (key === "writable") return writable;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
