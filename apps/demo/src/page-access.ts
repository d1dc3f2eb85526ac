/**
 * The page's access to the bridge: the token it keeps (access-token.ts), a new one from another
 * tab, a pasted one or a pairing code, and the screen that asks for one while the page has none
 * or the bridge refused it.
 */
import type { ReactiveController, ReactiveControllerHost } from "lit";
import { onTokenStored, storeToken, takeToken } from "./access-token.ts";
import type { DemoStrings } from "./demo-strings.ts";
import { isPairCode, type PairingFlow } from "./pair-device.ts";
import { tokenScreen } from "./token-screen.ts";

/** What a new token means to the page: another history (`changed`), and connecting again (`restart`). */
export interface TokenChange {
  readonly changed: boolean;
  readonly restart: boolean;
}

/** The token in force for a Lit host: re-renders it on each change. */
export class PageAccess implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #used: (change: TokenChange) => void;
  #token = takeToken();
  #rejected = false;
  /** What was pasted is no token. */
  #invalid = false;
  #off: () => void = () => {};

  /** `used` hears of each token taken into use, after it is in force. */
  constructor(host: ReactiveControllerHost, used: (change: TokenChange) => void) {
    this.#host = host;
    this.#used = used;
    host.addController(this);
  }

  /** The token the page connects with, if it has one. */
  get token(): string | undefined {
    return this.#token;
  }

  /** The bridge refused the token: the page asks for another. */
  get rejected(): boolean {
    return this.#rejected;
  }

  /** The bridge refused the token. */
  refused(): void {
    this.#rejected = true;
    this.#host.requestUpdate();
  }

  /** Keeps `token` and uses it; `restart` (a pairing) connects again even where one worked. */
  use(token: string, restart = false): void {
    storeToken(token);
    const change = {
      changed: token !== this.#token,
      restart: restart || this.#rejected || this.#token === undefined,
    };
    this.#token = token;
    this.#rejected = false;
    this.#invalid = false;
    this.#host.requestUpdate();
    this.#used(change);
  }

  /** The token screen, while there is no token to use; `undefined` otherwise. */
  screen(t: DemoStrings, pairing: PairingFlow): unknown {
    if (this.#token !== undefined && !this.#rejected) return undefined;
    return tokenScreen({
      rejected: this.#rejected,
      invalid: this.#invalid,
      strings: t,
      submit: (token, typed) => {
        if (isPairCode(typed))
          void pairing.redeem(typed).then((paired) => paired && this.use(paired));
        else if (token !== undefined) this.use(token);
        else {
          this.#invalid = true;
          this.#host.requestUpdate();
        }
      },
    });
  }

  hostConnected(): void {
    this.#off = onTokenStored((token) => this.use(token));
  }

  hostDisconnected(): void {
    this.#off();
  }
}
