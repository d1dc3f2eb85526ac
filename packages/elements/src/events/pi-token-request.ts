import { PI_EVENT } from "./event-init.ts";

/**
 * Fired (bubbling, composed) by an element with `src` and `token-from="event"` when it needs a
 * bridge token (when it connects, and again for each reconnect); answer with `respondWith`.
 * Unanswered, the element waits for its `token` property.
 */
export class PiTokenRequestEvent extends Event {
  #token: Promise<string> | undefined;

  constructor() {
    super("pi-token-request", PI_EVENT);
  }

  /** Gives the token, now or later. */
  respondWith(token: string | PromiseLike<string>): void {
    this.#token = Promise.resolve(token);
  }

  /** The answer, if a listener gave one. */
  get token(): Promise<string> | undefined {
    return this.#token;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-token-request": PiTokenRequestEvent;
  }
}
