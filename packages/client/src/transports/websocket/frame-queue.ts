import type { ReconnectInfo, TransportFrame, TransportFrames } from "../transport.ts";

/** Frames of one connection waiting to be read, or the marker between two connections. */
type Item = TransportFrame[] | ReconnectInfo;

/**
 * The inbound side of a reconnecting transport: frames of every connection in arrival order on
 * one `ReadableStream`, with a reconnect marker between connections.
 *
 * The stream pulls on each read (high-water mark 0) and hands over every frame queued since, up to
 * the next marker, as one batch; so a marker's listeners run exactly when the consumer has read
 * every frame of the dropped connection and not yet one of the new one.
 * Sockets are read eagerly into the queue; a client reads continuously, which keeps it short.
 */
export class FrameQueue {
  /** The frames, for the transport's `readable`. */
  readonly readable: ReadableStream<TransportFrames>;
  readonly #items: Item[] = [];
  readonly #listeners = new Set<(info: ReconnectInfo) => void>();
  readonly #onError: (error: unknown) => void;
  #ended = false;
  #wake: (() => void) | undefined;

  /** `onCancel` runs when the consumer cancels the stream; `onError` gets a listener's exception. */
  constructor(onCancel: (reason: unknown) => void, onError: (error: unknown) => void) {
    this.#onError = onError;
    this.readable = new ReadableStream<TransportFrames>(
      {
        pull: (controller) => this.#pull(controller),
        cancel: (reason) => {
          this.#ended = true;
          this.#items.length = 0;
          onCancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
  }

  /** Queues one frame, in the batch the next read hands over. */
  push(frame: TransportFrame): void {
    if (this.#ended) return;
    const last = this.#items.at(-1);
    if (Array.isArray(last)) last.push(frame);
    else this.#items.push([frame]);
    this.#notify();
  }

  /** Queues the reconnect marker of a new connection. */
  reconnected(info: ReconnectInfo): void {
    if (this.#ended) return;
    this.#items.push(info);
    this.#notify();
  }

  /** Ends the stream after the frames already queued. */
  end(): void {
    this.#ended = true;
    this.#notify();
  }

  /** Registers a reconnect listener; returns its remover. */
  onReconnect(listener: (info: ReconnectInfo) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  async #pull(controller: ReadableStreamDefaultController<TransportFrames>): Promise<void> {
    for (;;) {
      const item = this.#items.shift();
      if (item === undefined) {
        if (this.#ended) {
          controller.close();
          return;
        }
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
        continue;
      }
      if (Array.isArray(item)) {
        controller.enqueue(item);
        return;
      }
      for (const listener of [...this.#listeners]) {
        try {
          listener(item);
        } catch (error) {
          this.#onError(error);
        }
      }
    }
  }
}
