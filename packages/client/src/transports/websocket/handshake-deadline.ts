/**
 * How long the WebSocket transport gives one socket to open: the `connectTimeoutMs` option, and
 * after a socket was dropped for silence no longer than the keepalive window either (a frozen
 * node behind a proxy accepts and never answers, as dead as a socket silent that long).
 */

/** Default bound on opening one socket. */
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** One transport's bound on its handshakes. */
export class HandshakeDeadline {
  readonly #connectTimeoutMs: number;
  /** The keepalive window the last socket's bridge announced. */
  #keepaliveWindowMs: number | undefined;
  /**
   * A socket was dropped for silence and none has opened since. Only then is a handshake held to
   * the keepalive window: otherwise a slow but live one (a takeover that waits for a lease and
   * starts pi) would be given up again and again.
   */
  #afterSilence = false;

  constructor(connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS) {
    this.#connectTimeoutMs = connectTimeoutMs;
  }

  /** The bound on the next handshake, in ms. */
  get ms(): number {
    const silenceBound = this.#afterSilence ? this.#keepaliveWindowMs : undefined;
    return Math.min(this.#connectTimeoutMs, silenceBound ?? Number.POSITIVE_INFINITY);
  }

  /** The open socket's bridge announced its keepalive window (`undefined`: none). */
  keepaliveWindow(windowMs: number | undefined): void {
    this.#keepaliveWindowMs = windowMs;
  }

  /** A socket was dropped for silence. */
  silenced(): void {
    this.#afterSilence = true;
  }

  /** A socket opened. */
  opened(): void {
    this.#afterSilence = false;
  }
}
