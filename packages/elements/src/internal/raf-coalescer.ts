/**
 * Runs a callback at most once per animation frame however often it is scheduled: streamed deltas
 * arrive far faster than the screen refreshes, and rendering more often is wasted work.
 */
export class RafCoalescer {
  readonly #run: () => void;
  #frame: number | undefined;

  constructor(run: () => void) {
    this.#run = run;
  }

  /** True while a run is scheduled. */
  get pending(): boolean {
    return this.#frame !== undefined;
  }

  /** Schedules the callback for the next frame (no-op when already scheduled). */
  schedule(): void {
    if (this.#frame !== undefined) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = undefined;
      this.#run();
    });
  }

  /** Runs a scheduled callback now (tests, or before reading the DOM). */
  flush(): void {
    if (this.#frame === undefined) return;
    this.cancel();
    this.#run();
  }

  /** Drops a scheduled run. */
  cancel(): void {
    if (this.#frame !== undefined) cancelAnimationFrame(this.#frame);
    this.#frame = undefined;
  }
}
