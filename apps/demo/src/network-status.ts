/**
 * Whether the browser has a network (`navigator.onLine` and its `online`/`offline` events), for
 * the shell: it says "You're offline" instead of a connection error, and tries again when the
 * network is back.
 */
import type { ReactiveController, ReactiveControllerHost } from "lit";

/** Follows the network for a Lit host: re-renders it on each change. */
export class NetworkStatus implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #back: () => void;
  readonly #changed = () => {
    this.#host.requestUpdate();
    if (navigator.onLine) this.#back();
  };

  /** `back` runs each time the network returns. */
  constructor(host: ReactiveControllerHost, back: () => void) {
    this.#host = host;
    this.#back = back;
    host.addController(this);
  }

  /** True while the browser says it has no network. */
  get offline(): boolean {
    return !navigator.onLine;
  }

  hostConnected(): void {
    addEventListener("online", this.#changed);
    addEventListener("offline", this.#changed);
  }

  hostDisconnected(): void {
    removeEventListener("online", this.#changed);
    removeEventListener("offline", this.#changed);
  }
}
