import { lineSink, pumpFrames, settlesWithin } from "../frames.ts";
import type { TransportCloseInfo } from "../transport.ts";
import { DEFAULT_STOP_TIMEOUTS, gracefulStop } from "./graceful-stop.ts";
import {
  type ChildProcessOptions,
  type ChildProcessTransport,
  DEFAULT_STDERR_BUFFER_BYTES,
  type ExitStatus,
  type StopSignal,
} from "./options.ts";
import { type ProcessGroup, sweepGroup } from "./process-group.ts";
import { StderrBursts } from "./stderr-bursts.ts";
import { StderrRing } from "./stderr-ring.ts";

/**
 * After pi exits, how long to wait for the rest of its stdout and stderr. Normally the pipes end
 * at once; a grandchild that inherited them could hold them open forever, and `closed` must
 * settle promptly (the client rejects pending calls on it).
 */
const EXIT_DRAIN_MS = 50;

/** A spawned process as web streams: what each runtime adapter reduces its native child to. */
export interface SpawnedChild {
  /** The process id, when known. */
  readonly pid: number | undefined;
  /** pi's stdin. */
  readonly stdin: WritableStream<Uint8Array>;
  /** pi's stdout. */
  readonly stdout: ReadableStream<Uint8Array>;
  /** pi's stderr. */
  readonly stderr: ReadableStream<Uint8Array>;
  /** Resolves (never rejects) when the process has exited. */
  readonly exited: Promise<ExitStatus>;
  /** pi's process group: pi leads it, so a signal to it reaches pi and what it started there. */
  readonly group: ProcessGroup;
}

/** Builds the runtime-independent {@link ChildProcessTransport} over an adapter's child. */
export function createChildTransport(
  child: SpawnedChild,
  options: ChildProcessOptions = {},
): ChildProcessTransport {
  const ring = new StderrRing(options.stderrBufferBytes ?? DEFAULT_STDERR_BUFFER_BYTES);
  const stderrListeners = new Set<(text: string) => void>();
  const bursts = new StderrBursts((text) => {
    for (const listener of [...stderrListeners]) listener(text);
  }, options.stderrBursts);
  const { onStderr } = options;
  const stderrDone = drainStderr(child.stderr, ring, (text) => {
    bursts.push(text);
    onStderr?.(text);
  });
  const frames = pumpFrames(child.stdout, options.maxRecordBytes, options.highWaterMark);
  // A failed write means pi is gone or going: its exit, not the write error, closes the transport.
  const sink = lineSink(child.stdin);
  let exited = false;
  let stopping = false;
  let stop: Promise<unknown> | undefined;

  // Once pi has exited, only the sweep below signals what is left of its group.
  const kill = (signal: StopSignal): void => {
    if (exited) return;
    try {
      child.group.signal(signal);
    } catch {
      // The process exited between the check and the signal.
    }
  };

  const closed = child.exited.then(async (status): Promise<TransportCloseInfo> => {
    exited = true;
    // First, so that leftovers holding pi's pipes let go of them for the drain.
    await sweepGroup(
      child.group,
      options.stopTimeouts?.sigtermMs ?? DEFAULT_STOP_TIMEOUTS.sigtermMs,
    );
    await settlesWithin(Promise.all([frames.ended, stderrDone]), EXIT_DRAIN_MS);
    bursts.flush();
    frames.stop();
    // Release stdin too: nobody reads it any more, and Deno's test sanitizer counts it as a leak.
    sink.abortTarget();
    return {
      reason: stopping ? "closed" : "exit",
      exitCode: status.exitCode,
      signal: status.signal,
      stderrTail: ring.text(),
    };
  });

  return {
    pid: child.pid,
    readable: frames.readable,
    writable: sink.writable,
    closed,
    close() {
      if (!exited) stopping = true;
      stop ??= gracefulStop(
        {
          closeStdin: sink.closeTarget,
          kill,
          exited: child.exited,
        },
        options.stopTimeouts,
      );
      return stop.then(() => closed);
    },
    stderrTail: () => ring.text(),
    onPiStderr(listener) {
      stderrListeners.add(listener);
      return () => void stderrListeners.delete(listener);
    },
    kill(signal = "SIGTERM") {
      kill(signal);
    },
  };
}

/** Reads stderr to its end into the ring; resolves when it ends or fails. */
async function drainStderr(
  stderr: ReadableStream<Uint8Array>,
  ring: StderrRing,
  onStderr: (text: string) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  const reader = stderr.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      ring.push(value);
      try {
        onStderr(decoder.decode(value, { stream: true }));
      } catch {
        // A failing log hook must not stop the reading: pi blocks once its stderr pipe is full.
      }
    }
  } catch {
    // A broken stderr pipe only ends the diagnostics; the exit status tells what happened.
  } finally {
    reader.releaseLock();
  }
}
