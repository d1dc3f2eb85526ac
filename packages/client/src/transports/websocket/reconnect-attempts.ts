/**
 * The WebSocket transport's count of consecutive failed connections: how long to wait before the
 * next attempt (the delays are in backoff.ts), and when to give up.
 */
import { type Backoff, backoffDelay } from "./backoff.ts";
import { type SocketClose, WebSocketCloseError } from "./connection-state.ts";

/**
 * A socket open this long counts as a success and resets the backoff. A bridge that accepts and
 * then closes at once (overloaded, restarting) must not be retried at the initial delay forever.
 */
const STABLE_MS = 2000;

/** The next reconnect attempt after a drop: its number (1 for the first) and the wait before it. */
export interface NextAttempt {
  readonly attempt: number;
  readonly delayMs: number;
}

/** Counts one transport's failed attempts; `now` and `random` are the real ones by default. */
export class ReconnectAttempts {
  readonly #backoff: Backoff;
  readonly #now: () => number;
  readonly #random: () => number;
  #attempt = 0;
  #openedAt: number | undefined;

  constructor(backoff: Backoff, now: () => number = Date.now, random = Math.random) {
    this.#backoff = backoff;
    this.#now = now;
    this.#random = random;
  }

  /** A socket opened. */
  opened(): void {
    this.#openedAt = this.#now();
  }

  /** The open socket is being replaced on purpose (a ticket renewal): its time open counts for nothing. */
  replaced(): void {
    this.#openedAt = undefined;
  }

  /** A reconnect was asked for: the next socket opens at once, as attempt 1. */
  restart(): void {
    this.#openedAt = undefined;
    this.#attempt = 1;
  }

  /** The socket dropped with `close`: the next attempt, or the error of giving up. */
  next(close: SocketClose): NextAttempt | WebSocketCloseError {
    const openedAt = this.#openedAt;
    if (openedAt !== undefined && this.#now() - openedAt >= STABLE_MS) this.#attempt = 0;
    this.#openedAt = undefined;
    const attempt = ++this.#attempt;
    if (attempt > this.#backoff.maxAttempts) {
      const tries = attempt - 1;
      const message =
        tries === 0
          ? `the connection dropped (code ${close.code}) and reconnecting is off`
          : `gave up reconnecting after ${tries} attempt${tries === 1 ? "" : "s"} (last close code ${close.code})`;
      return new WebSocketCloseError(message, close);
    }
    return { attempt, delayMs: backoffDelay(attempt, this.#backoff, this.#random) };
  }
}
