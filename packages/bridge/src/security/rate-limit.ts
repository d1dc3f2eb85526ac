/**
 * A token bucket: `burst` messages at once, refilled at `perSecond`. One per connection, so a
 * client that floods pi (each record can start work or write settings) is cut off.
 */
export class TokenBucket {
  readonly #perMs: number;
  readonly #burst: number;
  readonly #now: () => number;
  #tokens: number;
  #last: number;

  /** `now` is injectable for tests; it defaults to `performance.now`. */
  constructor(perSecond: number, burst: number, now: () => number = () => performance.now()) {
    if (!(perSecond > 0) || !(burst >= 1)) {
      throw new RangeError(`A rate needs perSecond > 0 and burst >= 1, got ${perSecond}/${burst}`);
    }
    this.#perMs = perSecond / 1000;
    this.#burst = burst;
    this.#now = now;
    this.#tokens = burst;
    this.#last = now();
  }

  /** Consumes one token if there is one; `false` when the bucket is empty (the message is over the rate). */
  tryConsume(): boolean {
    const now = this.#now();
    this.#tokens = Math.min(this.#burst, this.#tokens + (now - this.#last) * this.#perMs);
    this.#last = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}
