import type { PiClient } from "@pi-kit/client";
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from "lit";
import { RunNotifier } from "../../notifications/run-notifier.ts";
import type { PiStrings } from "../i18n/i18n.ts";
import { icons } from "../icons.ts";

/**
 * The run notifications of an element that offers them (`<pi-chat notify>`): a {@link RunNotifier}
 * for the client it watches, released when it stops watching or disconnects, and the button that
 * asks for desktop notifications.
 */
export class NotifyController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #strings: () => PiStrings;
  #notifier: { client: PiClient; notifier: RunNotifier } | undefined;

  /** `strings` gives the notifications' strings in the host's current language. */
  constructor(host: ReactiveControllerHost, strings: () => PiStrings) {
    this.#host = host;
    this.#strings = strings;
    host.addController(this);
  }

  /** Notifies about `client`'s runs (or nothing's). */
  watch(client: PiClient | undefined): void {
    if (this.#notifier?.client === client) return;
    this.#notifier?.notifier.dispose();
    this.#notifier =
      client === undefined
        ? undefined
        : { client, notifier: new RunNotifier(client, { strings: this.#strings }) };
  }

  hostDisconnected(): void {
    this.watch(undefined);
  }

  /** "Notify me", offered until the user has decided: browsers only ask from a click. */
  button(s: PiStrings): unknown {
    if (RunNotifier.permission !== "default") return nothing;
    return html`<button
      part="notify-button"
      class="notify"
      title=${s.notifyEnableHint}
      @click=${async () => {
        await RunNotifier.requestPermission();
        this.#host.requestUpdate();
      }}
    >${icons.bell}<span>${s.notifyEnable}</span></button>`;
  }
}
