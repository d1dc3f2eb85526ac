/**
 * Hands each batch of pi's records to a session's connections with backpressure per socket. The
 * controller gets the whole batch before any watcher does, so watching adds nothing to the latency
 * of the one who drives pi; a socket over the high-water mark gets the rest of the batch once it
 * has drained, and the session stops reading pi until then (pi then blocks on its stdout pipe), so
 * a socket never holds more than the mark plus one record.
 */
import type { SessionConnection } from "./session-connection.ts";
import type { SessionControl } from "./session-control.ts";

/** One read of pi's stdout, ready to relay: its lines, and the one connection each answers, if any. */
export interface RelayBatch {
  readonly lines: readonly string[];
  /** For each line, the connection it answers (it alone gets it), or `undefined` for everyone. */
  readonly answers: readonly (SessionConnection | undefined)[];
}

/** The sending side of one session, and what the API reports of its backpressure. */
export class FanOut {
  readonly #control: SessionControl<SessionConnection>;
  readonly #highWaterMark: number;
  #peakBuffered = 0;
  #pauses = 0;

  constructor(control: SessionControl<SessionConnection>, highWaterMark: number) {
    this.#control = control;
    this.#highWaterMark = highWaterMark;
  }

  /** How often a socket over the high-water mark held the batch back. */
  get pauses(): number {
    return this.#pauses;
  }

  /** Bytes queued now on the fullest attached socket. */
  bufferedAmount(): number {
    let buffered = 0;
    for (const connection of this.#control.connections) {
      buffered = Math.max(buffered, connection.bufferedAmount());
    }
    return buffered;
  }

  /** The most bytes ever queued on one socket, now included. */
  peakBufferedAmount(): number {
    return Math.max(this.#peakBuffered, this.bufferedAmount());
  }

  /** Sends a batch to every connection; returns a promise while a socket holds part of it back. */
  send(batch: RelayBatch): Promise<void> | undefined {
    const held: Promise<void>[] = [];
    const controller = this.#control.controller;
    if (controller !== undefined) this.#sendFrom(controller, batch, 0, held);
    for (const connection of this.#control.connections) {
      if (connection !== controller) this.#sendFrom(connection, batch, 0, held);
    }
    if (held.length === 0) return undefined;
    return held.length === 1 ? held[0] : Promise.all(held).then(() => undefined);
  }

  /**
   * Sends `connection` its lines of a batch from `start` on: the broadcast ones and the answers to
   * its own commands (an answer to a connection that has left is dropped: the others never asked).
   * Once its socket is over the high-water mark, the rest waits for it to drain (added to `held`).
   */
  #sendFrom(
    connection: SessionConnection,
    batch: RelayBatch,
    start: number,
    held: Promise<void>[],
  ): void {
    const { lines, answers } = batch;
    for (let i = start; i < lines.length; i++) {
      const to = answers[i];
      if (to !== undefined && to !== connection) continue;
      connection.send(lines[i] as string);
      const buffered = connection.bufferedAmount();
      if (buffered > this.#peakBuffered) this.#peakBuffered = buffered;
      if (buffered <= this.#highWaterMark) continue;
      this.#pauses++;
      held.push(connection.drained().then(() => this.#sendRest(connection, batch, i + 1)));
      return;
    }
  }

  /** The rest of a batch, once `connection` has drained, unless it has left meanwhile. */
  async #sendRest(connection: SessionConnection, batch: RelayBatch, start: number): Promise<void> {
    if (!this.#control.connections.has(connection)) return;
    const held: Promise<void>[] = [];
    this.#sendFrom(connection, batch, start, held);
    await held[0];
  }
}
