/**
 * Where the bridge benchmarks stamp pi's records on the bridge's thread: as each batch leaves
 * pi's transport, and as the bridge hands each record to a socket; and the statistics they print.
 */
import type { ChildProcessOptions, ChildProcessTransport } from "@pi-kit/client/node";
import { spawnNode } from "@pi-kit/client/node";
import * as ws from "ws";

/** A time comparable with the client thread's stamps (`timeOrigin + now()` agrees across threads). */
export const now = (): number => performance.timeOrigin + performance.now();

/**
 * Calls `listener` after each `ws` send has returned (the bytes are with the kernel). Works
 * because the bridge's `ws` is this module instance.
 */
export function afterSocketSend(listener: (socket: unknown, data: unknown) => void): void {
  const prototype = (
    ws as unknown as { WebSocket: { prototype: { send: (...a: unknown[]) => void } } }
  ).WebSocket.prototype;
  const send = prototype.send;
  prototype.send = function (this: unknown, ...a: unknown[]) {
    send.apply(this, a);
    listener(this, a[0]);
  };
}

/** A `spawn` for the bridge that taps the next pi it starts, once asked to. */
export interface PiTap {
  /** Every frame the tapped pi wrote, stamped as its batch left the transport. */
  readonly stamps: number[];
  /** Taps the next pi the bridge starts. */
  next(): void;
  /** The bridge's `spawn`. */
  spawn(options: ChildProcessOptions): Promise<ChildProcessTransport>;
}

/** A tap on pi's stdout, read beside the bridge through a tee (as direct stdio would be). */
export function piTap(): PiTap {
  const stamps: number[] = [];
  let tapNext = false;
  return {
    stamps,
    next: () => {
      tapNext = true;
    },
    async spawn(options) {
      const transport = await spawnNode(options);
      if (!tapNext) return transport;
      tapNext = false;
      const [direct, relayed] = transport.readable.tee();
      void (async () => {
        const reader = direct.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          // A batch is the frames of one stdout chunk: they all leave the transport now.
          const at = now();
          for (let i = 0; i < value.length; i++) stamps.push(at);
        }
      })();
      return { ...transport, readable: relayed };
    },
  };
}

/** The `p` quantile of sorted numbers. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;
}

/** The median of numbers in any order. */
export const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** Milliseconds, for printing. */
export const ms = (x: number): string => `${x.toFixed(2)} ms`;
