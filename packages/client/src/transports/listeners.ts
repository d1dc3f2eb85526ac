/** A set of listeners of one kind of news, each called in turn: one that throws stops none of the others. */
export class Listeners<T> {
  readonly #listeners = new Set<(value: T) => void>();

  /** Registers a listener; returns its remover. */
  add(listener: (value: T) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** Calls every listener with `value`; a listener's error is reported (it is the caller's bug), not thrown. */
  notify(value: T): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(value);
      } catch (error) {
        queueMicrotask(() => reportError(error));
      }
    }
  }
}
