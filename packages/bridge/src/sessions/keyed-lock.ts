/** Runs tasks one at a time per key (a session name), in the order they were queued. */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `task` once every task queued earlier under `key` has settled; resolves with its result. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(
      () => {},
      () => {},
    );
    this.#tails.set(key, tail);
    // Forget the key once its queue is empty, so the map does not grow with every name ever used.
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}
