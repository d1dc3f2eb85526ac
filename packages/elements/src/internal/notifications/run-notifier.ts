import type { PiClient } from "@pi-kit/client";
import type { AgentMessage, AssistantMessage } from "@pi-kit/protocol";
import { textOf } from "../i18n/format.ts";
import type { PiStrings } from "../i18n/i18n.ts";
import { en } from "../i18n/locales/en.ts";
import { addToTitleBadge } from "./title-badge.ts";

/** What a {@link RunNotifier} can tell: the permission for desktop notifications, or that there are none. */
export type NotifyPermission = NotificationPermission | "unsupported";

/** Options for {@link RunNotifier}. */
export interface RunNotifierOptions {
  /** Also show desktop notifications, once the user granted the permission (default true). */
  desktop?: boolean;
  /** The strings to write in (read on each event, so a language switch applies at once). */
  strings?: () => PiStrings;
}

/** Longest body text of a desktop notification. */
const BODY_MAX = 140;

const DIALOGS = new Set(["select", "confirm", "input", "editor"]);

const notifications = (): typeof Notification | undefined =>
  typeof Notification === "function" ? Notification : undefined;

function excerpt(text: string): string {
  const line = text.trim().replace(/\s+/g, " ");
  return line.length > BODY_MAX ? `${line.slice(0, BODY_MAX - 1)}…` : line;
}

function lastAnswer(messages: readonly AgentMessage[]): AssistantMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === "assistant") return message;
    if (message?.role === "user") return undefined;
  }
  return undefined;
}

let notifierCounter = 0;

/**
 * Tells the user when pi finishes a run or needs an answer while the page's tab is hidden: a count
 * in front of the page title, `(2) …`, and, once the user allowed it, a desktop notification.
 * Both go away when the tab is shown again. Nothing happens while the tab is visible: the chat
 * itself shows what happened. Ask for the permission from a click with
 * {@link RunNotifier.requestPermission} (browsers refuse it otherwise).
 * @example
 * const notifier = new RunNotifier(client);
 * button.onclick = () => RunNotifier.requestPermission();
 * // later
 * notifier.dispose();
 */
export class RunNotifier {
  readonly #client: PiClient;
  readonly #desktop: boolean;
  readonly #strings: () => PiStrings;
  readonly #tag = `pi-kit-${++notifierCounter}`;
  readonly #shown: Notification[] = [];
  readonly #off: (() => void)[] = [];

  /** The permission for desktop notifications now. */
  static get permission(): NotifyPermission {
    return notifications()?.permission ?? "unsupported";
  }

  /** Asks the user for desktop notifications; call it from a click or a key press. */
  static async requestPermission(): Promise<NotifyPermission> {
    const api = notifications();
    if (api === undefined) return "unsupported";
    if (api.permission !== "default") return api.permission;
    return api.requestPermission();
  }

  constructor(client: PiClient, options: RunNotifierOptions = {}) {
    this.#client = client;
    this.#desktop = options.desktop ?? true;
    this.#strings = options.strings ?? (() => en);
    this.#off.push(
      client.on("run_settled", (event) => this.#settled(event.aborted)),
      client.on("extension_ui_request", (request) => {
        if (DIALOGS.has(request.method) && "title" in request)
          this.#notify(this.#strings().notifyInputTitle, request.title);
      }),
    );
    document.addEventListener("visibilitychange", this.#onVisibility);
    this.#off.push(() => document.removeEventListener("visibilitychange", this.#onVisibility));
  }

  /** Stops listening and takes its desktop notifications away. */
  dispose(): void {
    for (const off of this.#off.splice(0)) off();
    this.#closeAll();
  }

  #settled(aborted: boolean): void {
    const s = this.#strings();
    const answer = lastAnswer(this.#client.session.getSnapshot().messages);
    if (aborted) this.#notify(s.notifyAbortedTitle, "");
    else if (answer?.stopReason === "error")
      this.#notify(s.notifyErrorTitle, answer.errorMessage ?? "");
    else this.#notify(s.notifyDoneTitle, answer ? textOf(answer.content) : "");
  }

  #notify(title: string, body: string): void {
    if (document.visibilityState !== "hidden") return;
    addToTitleBadge();
    const api = notifications();
    if (!this.#desktop || api?.permission !== "granted") return;
    try {
      const notification = new api(title, { body: excerpt(body), tag: this.#tag });
      notification.onclick = () => {
        window.focus();
        notification.close();
      };
      this.#shown.push(notification);
    } catch {
      // Some browsers (Chrome on Android) only notify through a service worker: the badge remains.
    }
  }

  #closeAll(): void {
    for (const notification of this.#shown.splice(0)) notification.close();
  }

  readonly #onVisibility = (): void => {
    if (document.visibilityState !== "hidden") this.#closeAll();
  };
}
