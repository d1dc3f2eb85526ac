/**
 * pi's stderr as a few bounded messages: what pi writes within a short window after its first
 * write is one message (a diagnostic of several lines arrives whole), a message holds at most
 * `maxChars` characters, and at most one message goes out per `minIntervalMs`. What pi writes
 * beyond that is left out and counted in the next message, so a chatty pi cannot flood a UI or
 * every socket of a bridge, and nobody is told less than that something was left out.
 */

/** Bounds of {@link StderrBursts}. */
export interface StderrBurstLimits {
  /** How long a burst collects after its first write, in ms. Defaults to 20. */
  readonly quietMs?: number;
  /** The fewest ms between two messages. Defaults to 250. */
  readonly minIntervalMs?: number;
  /** The most characters of one message (the note about what was left out comes on top). Defaults to 4096. */
  readonly maxChars?: number;
}

/** The clock and timer a {@link StderrBursts} uses (tests pass their own). */
export interface BurstClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const SYSTEM_CLOCK: BurstClock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/** Coalesces decoded stderr text into bursts, bounded in size and rate. */
export class StderrBursts {
  readonly #emit: (text: string) => void;
  readonly #quietMs: number;
  readonly #minIntervalMs: number;
  readonly #maxChars: number;
  readonly #clock: BurstClock;
  #pending = "";
  #leftOut = 0;
  #lastSent = Number.NEGATIVE_INFINITY;
  #timer: unknown;

  constructor(
    emit: (text: string) => void,
    limits: StderrBurstLimits = {},
    clock: BurstClock = SYSTEM_CLOCK,
  ) {
    this.#emit = emit;
    this.#quietMs = limits.quietMs ?? 20;
    this.#minIntervalMs = limits.minIntervalMs ?? 250;
    this.#maxChars = limits.maxChars ?? 4096;
    this.#clock = clock;
  }

  /** Adds text pi wrote; the burst goes out after the window, once the rate allows. */
  push(text: string): void {
    if (text === "") return;
    const room = this.#maxChars - this.#pending.length;
    if (room >= text.length) this.#pending += text;
    else {
      this.#pending += text.slice(0, Math.max(0, room));
      this.#leftOut += text.length - Math.max(0, room);
    }
    this.#schedule();
  }

  /** Sends what is pending now (pi exited), ignoring the rate; nothing is sent after. */
  flush(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#send();
  }

  // Armed once per burst, not again on every write: pi writing without pause still gets a
  // message out every `minIntervalMs`.
  #schedule(): void {
    if (this.#timer !== undefined) return;
    const wait = Math.max(this.#quietMs, this.#lastSent + this.#minIntervalMs - this.#clock.now());
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      this.#send();
    }, wait);
  }

  #send(): void {
    const text = this.#pending.replace(/\r?\n$/, "");
    const leftOut = this.#leftOut;
    this.#pending = "";
    this.#leftOut = 0;
    if (text === "" && leftOut === 0) return;
    this.#lastSent = this.#clock.now();
    const note = leftOut === 0 ? "" : `\n[… ${leftOut} more characters of pi's stderr left out]`;
    try {
      this.#emit(text + note);
    } catch {
      // A failing listener must not stop the reading: pi blocks once its stderr pipe is full.
    }
  }
}
