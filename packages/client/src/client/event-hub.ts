import type { DiagnosticSink, PiClientDiagnostic } from "../diagnostics/pi-client-diagnostic.ts";

/** Removes a listener; calling it twice is harmless. */
export type Unsubscribe = () => void;

/** Options for async iteration over events. */
export interface EventIterationOptions {
  /** Ends the iteration when aborted. */
  signal?: AbortSignal;
  /**
   * Most events buffered for a slow consumer. Unbounded by default, so nothing is ever lost;
   * with a bound, the oldest events are dropped and an `iterator_overflow` diagnostic is reported.
   */
  maxBuffered?: number;
}

type Listener<T> = (value: T) => void;

/**
 * Typed publish/subscribe for a discriminated union of events, plus a catch-all, async iteration
 * and a separate diagnostics channel. A listener that throws never stops the others: the error is
 * reported as a `listener_error` diagnostic.
 */
export class EventHub<E extends { readonly type: string }> {
  readonly #byType = new Map<string, Set<Listener<E>>>();
  readonly #any = new Set<Listener<E>>();
  readonly #diagnostics = new Set<Listener<PiClientDiagnostic>>();
  readonly #iterators = new Set<() => void>();
  #closed = false;

  /** Subscribes to one event type. */
  on<K extends E["type"]>(type: K, listener: Listener<Extract<E, { type: K }>>): Unsubscribe {
    let set = this.#byType.get(type);
    if (set === undefined) {
      set = new Set();
      this.#byType.set(type, set);
    }
    const stored = listener as Listener<E>;
    set.add(stored);
    return () => set.delete(stored);
  }

  /** Subscribes to every event. */
  onAny(listener: Listener<E>): Unsubscribe {
    this.#any.add(listener);
    return () => this.#any.delete(listener);
  }

  /** Subscribes to diagnostics. */
  onDiagnostic(listener: Listener<PiClientDiagnostic>): Unsubscribe {
    this.#diagnostics.add(listener);
    return () => this.#diagnostics.delete(listener);
  }

  /** The sink internal parts use to report problems. */
  readonly report: DiagnosticSink = (diagnostic) => {
    // Snapshot so a listener that unsubscribes during dispatch cannot skip its neighbours.
    for (const listener of [...this.#diagnostics]) {
      try {
        listener(diagnostic);
      } catch {
        // A throwing diagnostics listener has nowhere left to report to; reporting it again would loop.
      }
    }
  };

  /** Delivers an event to the typed listeners, then the catch-all listeners. */
  emit(event: E): void {
    const typed = this.#byType.get(event.type);
    const listeners = [...(typed ?? []), ...this.#any];
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        this.report({
          kind: "listener_error",
          message: `a "${event.type}" listener threw: ${String(error)}`,
          error,
          record: event,
        });
      }
    }
  }

  /** Iterates over every event from now on, until the hub closes, the signal aborts or the loop breaks. */
  iterate(options: EventIterationOptions = {}): AsyncIterableIterator<E> {
    const max = options.maxBuffered ?? Number.POSITIVE_INFINITY;
    const buffer: E[] = [];
    let waiting: ((result: IteratorResult<E>) => void) | undefined;
    let done = this.#closed || options.signal?.aborted === true;
    let dropped = 0;

    const finish = (): void => {
      if (done && waiting === undefined) return;
      done = true;
      unsubscribe();
      this.#iterators.delete(finish);
      options.signal?.removeEventListener("abort", finish);
      const resolve = waiting;
      waiting = undefined;
      resolve?.({ value: undefined, done: true });
    };
    const unsubscribe = done
      ? () => {}
      : this.onAny((event) => {
          if (waiting !== undefined) {
            const resolve = waiting;
            waiting = undefined;
            resolve({ value: event, done: false });
            return;
          }
          buffer.push(event);
          if (buffer.length > max) {
            buffer.shift();
            dropped++;
            this.report({
              kind: "iterator_overflow",
              message: `event iterator buffer full (${max}); dropped the oldest event (${dropped} so far)`,
            });
          }
        });
    if (!done) {
      this.#iterators.add(finish);
      options.signal?.addEventListener("abort", finish, { once: true });
    }

    const iterator: AsyncIterableIterator<E> = {
      next: () => {
        const value = buffer.shift();
        if (value !== undefined) return Promise.resolve({ value, done: false });
        if (done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          waiting = resolve;
        });
      },
      return: () => {
        buffer.length = 0;
        finish();
        return Promise.resolve({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  /** Ends every iterator (after it drains its buffer) and refuses new ones. Listeners stay registered. */
  close(): void {
    this.#closed = true;
    for (const finish of [...this.#iterators]) finish();
  }
}
