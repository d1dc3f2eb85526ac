import type { PiClient } from "@pi-kit/client";
import { html, nothing, type ReactiveControllerHost } from "lit";
import type { PiStrings } from "../i18n/i18n.ts";
import * as icons from "../icons.ts";
import { RunNotifier } from "../notifications/run-notifier.ts";
import { ClientWatcher } from "./client-watcher.ts";

/**
 * The run notifications of an element that offers them (`<pi-chat notify>`): a {@link RunNotifier}
 * for the client it watches, released when it stops watching or disconnects, and the button that
 * asks for desktop notifications.
 */
export class NotifyController extends ClientWatcher {
  readonly #strings: () => PiStrings;

  /** `strings` gives the notifications' strings in the host's current language. */
  constructor(host: ReactiveControllerHost, strings: () => PiStrings) {
    super(host);
    this.#strings = strings;
  }

  protected subscribe(client: PiClient): () => void {
    const notifier = new RunNotifier(client, { strings: this.#strings });
    return () => notifier.dispose();
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
        this.host.requestUpdate();
      }}
    >${icons.bell()}<span>${s.notifyEnable}</span></button>`;
  }
}
