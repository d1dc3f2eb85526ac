import type { ReconnectInfo, TransportFrame } from "../transport.ts";

type Item = { readonly frame: TransportFrame } | { readonly reconnect: ReconnectInfo };

/**
 * The inbound side of a reconnecting transport: frames of every connection in arrival order on
 * one `ReadableStream`, with a reconnect marker between connections.
 *
 * The stream pulls one item per read (high-water mark 0), so a marker's listeners run exactly when
 * the consumer has read every frame of the dropped connection and not yet one of the new one.
 * Sockets are read eagerly into the queue; a client reads continuously, which keeps it short.
 */
export class FrameQueue {
  /** The frames, for the transport's `readable`. */
  readonly readable: ReadableStream<TransportFrame>;
  readonly #items: Item[] = [];
  readonly #listeners = new Set<(info: ReconnectInfo) => void>();
  readonly #onError: (error: unknown) => void;
  #ended = false;
  #wake: (() => void) | undefined;

  /** `onCancel` runs when the consumer cancels the stream; `onError` gets a listener's exception. */
  constructor(onCancel: (reason: unknown) => void, onError: (error: unknown) => void) {
    this.#onError = onError;
    this.readable = new ReadableStream<TransportFrame>(
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

  /** Queues one frame. */
  push(frame: TransportFrame): void {
    if (this.#ended) return;
    this.#items.push({ frame });
    this.#notify();
  }

  /** Queues the reconnect marker of a new connection. */
  reconnected(info: ReconnectInfo): void {
    if (this.#ended) return;
    this.#items.push({ reconnect: info });
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

  async #pull(controller: ReadableStreamDefaultController<TransportFrame>): Promise<void> {
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
      if ("frame" in item) {
        controller.enqueue(item.frame);
        return;
      }
      for (const listener of [...this.#listeners]) {
        try {
          listener(item.reconnect);
        } catch (error) {
          this.#onError(error);
        }
      }
    }
  }
}
