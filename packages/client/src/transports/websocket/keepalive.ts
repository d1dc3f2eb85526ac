/**
 * The client's half of the bridge's keepalive. The bridge sends every socket a `bridge_ping`
 * record every `intervalMs`; a socket on which nothing at all arrives for two intervals and a
 * half is taken for dead (its bridge, or the cluster node relaying it, froze, or the network went
 * without a close), and the transport drops it and reconnects as after a 1006; its next handshakes
 * get no longer than that window either. Browsers cannot
 * see WebSocket ping frames, hence a record. Nothing is armed until the first ping: a bridge that
 * never pings (an older one, `--keepalive-ms 0`) is never given up on for being quiet.
 */

/** Watches one socket; call {@link KeepaliveWatch.heard} on everything that arrives. */
export class KeepaliveWatch {
  readonly #onSilent: (silentMs: number) => void;
  #windowMs: number | undefined;
  #lastHeard = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `onSilent` is called once when the socket has been silent for the whole window. */
  constructor(onSilent: (silentMs: number) => void) {
    this.#onSilent = onSilent;
  }

  /**
   * Something arrived; `intervalMs` when it was a `bridge_ping` (it sets the window). Answers the
   * window in force, if any.
   */
  heard(intervalMs?: number): number | undefined {
    this.#lastHeard = performance.now();
    if (intervalMs !== undefined) {
      const windowMs = intervalMs * 2.5;
      if (windowMs !== this.#windowMs) {
        this.#windowMs = windowMs;
        this.stop();
      }
    }
    // One timer per window, not one per record: a busy stream costs a clock read each.
    if (this.#timer === undefined && this.#windowMs !== undefined) this.#arm(this.#windowMs);
    return this.#windowMs;
  }

  /** Stops watching (the socket closed). */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(delayMs: number): void {
    this.#timer = setTimeout(() => {
      // One more turn of the event loop first: after a stall of this thread (a loaded machine,
      // a long task) the timer runs before the records that arrived meanwhile are read.
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        const windowMs = this.#windowMs as number;
        const silentMs = performance.now() - this.#lastHeard;
        if (silentMs >= windowMs) this.#onSilent(silentMs);
        else this.#arm(windowMs - silentMs);
      }, 0);
    }, delayMs);
  }
}
