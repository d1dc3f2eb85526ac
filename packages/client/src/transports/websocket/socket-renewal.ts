/**
 * Renewing one open socket's ticket (a token function's tickets only): when to ask the token
 * function for a fresh ticket (the timing is in ticket-renewal.ts), what to do while requests wait
 * for answers on the socket, and when to try again.
 */
import type { Offer } from "./protocols.ts";
import { OPEN, type WebSocketLike } from "./socket.ts";
import { renewalDelay, ticketExpiry } from "./ticket-renewal.ts";
import type { UnansweredRequests } from "./unanswered-requests.ts";

/** The shortest wait before asking a token function again after a failed renewal. */
const RENEW_RETRY_MIN_MS = 500;

/** What a renewal asks of its transport, and the clock it runs on (the real one by default). */
export interface RenewalHooks {
  /** Asks the token function for a fresh offer. */
  readonly fresh: () => Promise<Offer>;
  /** Replaces the socket with one opened on `offer`, whose ticket expires later. */
  readonly replace: (offer: Offer) => void;
  /** The time in ms since the epoch. */
  readonly now?: () => number;
  /** Runs `callback` after `delayMs`; answers a function that cancels it. */
  readonly schedule?: (callback: () => void, delayMs: number) => () => void;
}

const realSchedule = (callback: () => void, delayMs: number): (() => void) => {
  const timer = setTimeout(callback, delayMs);
  return () => clearTimeout(timer);
};

/**
 * Renews `socket`'s ticket: asks for a fresh one while the socket stays open, then has the
 * transport replace the socket with one opened on it, quietly (the state stays `open`; the client
 * resyncs as after any reconnect). A token function that fails, or gives a ticket that expires no
 * later, is asked again after half the time left, until the expiry; one that does not answer
 * leaves the socket as it is. Either way the bridge closes it at the ticket's expiry (4401,
 * `ticket_expired`). The transport stops it when the socket goes.
 */
export class SocketRenewal {
  readonly #socket: Pick<WebSocketLike, "readyState">;
  readonly #expiresAt: number;
  readonly #unanswered: UnansweredRequests;
  readonly #hooks: RenewalHooks;
  readonly #now: () => number;
  readonly #schedule: NonNullable<RenewalHooks["schedule"]>;
  #cancelTimer: () => void = () => {};
  /** Counts token requests, so only the latest answer counts. */
  #requests = 0;
  #stopped = false;

  /** Starts renewing `socket`, opened on `offer`; `undefined` when its ticket has no expiry. */
  static start(
    socket: Pick<WebSocketLike, "readyState">,
    offer: Offer,
    unanswered: UnansweredRequests,
    hooks: RenewalHooks,
  ): SocketRenewal | undefined {
    const expiresAt = offer.ticket === undefined ? undefined : ticketExpiry(offer.ticket);
    return expiresAt === undefined
      ? undefined
      : new SocketRenewal(socket, expiresAt, unanswered, hooks);
  }

  private constructor(
    socket: Pick<WebSocketLike, "readyState">,
    expiresAt: number,
    unanswered: UnansweredRequests,
    hooks: RenewalHooks,
  ) {
    this.#socket = socket;
    this.#expiresAt = expiresAt;
    this.#unanswered = unanswered;
    this.#hooks = hooks;
    this.#now = hooks.now ?? Date.now;
    this.#schedule = hooks.schedule ?? realSchedule;
    this.#later(() => this.#renew(), renewalDelay(expiresAt, this.#now()));
  }

  /** The socket is gone or being closed: nothing more happens. */
  stop(): void {
    this.#stopped = true;
    this.#cancelTimer();
  }

  #renew(patient = true): void {
    if (this.#stopped || this.#socket.readyState !== OPEN) return;
    if (patient && this.#unanswered.size > 0) {
      // Answers come only on this socket: renew once they are in, or at half the time left
      // (a long bash run), when the bridge's cut-off would lose them anyway.
      const renew = (): void => this.#renew(false);
      this.#unanswered.whenIdle(renew);
      this.#later(renew, Math.max(0, (this.#expiresAt - this.#now()) / 2));
      return;
    }
    const request = ++this.#requests;
    this.#hooks.fresh().then(
      (fresh) => {
        if (request !== this.#requests || this.#stopped) return;
        // The same ticket again (a cache, a page that stopped answering) renews nothing.
        const next = fresh.ticket === undefined ? undefined : ticketExpiry(fresh.ticket);
        if (next === undefined || next <= this.#expiresAt) this.#renewLater();
        else this.#hooks.replace(fresh);
      },
      // Keep the socket meanwhile: the bridge ends it at the expiry, and that close says why.
      () => {
        if (request === this.#requests && !this.#stopped) this.#renewLater();
      },
    );
  }

  /** Asks for a fresh ticket again after half the time left before the expiry, if any is left. */
  #renewLater(): void {
    const left = this.#expiresAt - this.#now();
    if (left <= 0) return;
    this.#later(() => this.#renew(), Math.max(RENEW_RETRY_MIN_MS, left / 2));
  }

  #later(callback: () => void, delayMs: number): void {
    this.#cancelTimer = this.#schedule(callback, delayMs);
  }
}
