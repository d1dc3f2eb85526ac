import type { ForkMessage } from "@pi-kit/protocol";
import { html } from "lit";
import { PiForkEvent } from "../../events/pi-fork.ts";
import { PiForkedEvent } from "../../events/pi-forked.ts";
import { busyTask } from "../../internal/busy-task.ts";
import { confirmBar, focusConfirmBar } from "../../internal/confirm-bar.ts";
import {
  ConnectionController,
  refreshOnChanges,
} from "../../internal/controllers/connection-controller.ts";
import { format } from "../../internal/i18n/format.ts";
import { type PiSessionStrings, sessionStringsFor } from "../../internal/i18n/session-strings.ts";
import { PickerElement } from "../../internal/picker-element.ts";
import { confirmStyles } from "../../styles/confirm.ts";
import { listStyles } from "../../styles/list.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import { forkPickerStyles } from "./pi-fork-picker.styles.ts";

/**
 * Lists the user messages a new branch can start from (`get_fork_messages`) and, after asking,
 * forks at the one chosen (`fork`): pi starts a new session with the conversation before that
 * message, the client shows it by itself (`session_changed`), and `pi-forked` hands the message's
 * text back for the editor (`<pi-chat>` puts it there when the picker is inside it). The list
 * reloads after each run and each session change.
 *
 * Keyboard: ↑ ↓ Home End PageUp PageDown and typing move; Enter or Space asks to fork there, and
 * Enter again forks (Escape backs out).
 *
 * @tagname pi-fork-picker
 * @summary Fork picker.
 * @event pi-fork - Before forking; cancelable. {@link PiForkEvent}
 * @event pi-forked - After pi forked, with the text for the editor. {@link PiForkedEvent}
 * @event pi-error - Loading or forking failed (`action` is `load-fork-messages` or `fork`).
 * @csspart listbox - The list.
 * @csspart option - One message.
 * @csspart hint - The keyboard hint.
 * @csspart empty - Shown when there is nothing to fork from.
 * @csspart confirm - The question before forking.
 * @csspart confirm-button - Forks.
 * @csspart cancel-button - Backs out.
 * @cssproperty [--max-height=20rem] - Height before the list scrolls.
 */
export class PiForkPicker extends PickerElement<PiSessionStrings> {
  static override styles = [tokenStyles, baseStyles, listStyles, confirmStyles, forkPickerStyles];
  static override properties = {
    messages: { attribute: false },
    noConfirm: { type: Boolean, attribute: "no-confirm" },
    active: { state: true },
    busy: { state: true },
    confirming: { state: true },
  };

  /** The messages to offer; loaded from the client when there is one. */
  declare messages: readonly ForkMessage[] | undefined;
  /** Forks at once, without asking first (for a page that asks in its own way). */
  declare noConfirm: boolean;
  /** The highlighted message. */
  declare active: number;
  declare busy: boolean;
  declare confirming: ForkMessage | undefined;

  readonly #connection = new ConnectionController(this, {
    changed: refreshOnChanges(() => void this.refresh()),
  });
  #focusPending: "confirm" | "list" | undefined;

  /** @internal */
  protected override ownStrings(lang: string): PiSessionStrings {
    return sessionStringsFor(lang);
  }

  constructor() {
    super();
    this.active = 0;
    this.busy = false;
    this.noConfirm = false;
  }

  /** Reloads the messages from the client. */
  async refresh(): Promise<void> {
    const client = this.#connection.client;
    if (client === undefined) return;
    await busyTask(this, "load-fork-messages", async () => {
      this.messages = await client.getForkMessages();
    });
  }

  /** Forks at a message without asking (fires `pi-fork` first, `pi-forked` after). */
  async fork(message: ForkMessage): Promise<void> {
    if (!this.dispatchEvent(new PiForkEvent(message))) return;
    const client = this.#connection.client;
    if (client === undefined) return;
    await busyTask(this, "fork", async () => {
      // The client has loaded the new session by now, and its session_changed reloaded the list.
      const result = await client.fork(message.entryId);
      this.dispatchEvent(new PiForkedEvent(message.entryId, result.text, result.cancelled));
    });
  }

  /** Asks whether to fork at a message (as Enter or a click does), then forks; `no-confirm` skips the question. */
  choose(message: ForkMessage): void {
    if (this.noConfirm) {
      void this.fork(message);
      return;
    }
    this.confirming = message;
    this.#focusPending = "confirm";
  }

  override focus(options?: FocusOptions): void {
    this.renderRoot.querySelector<HTMLElement>('[role="listbox"]')?.focus(options);
  }

  protected override willUpdate(): void {
    this.#connection.resolve();
    const count = this.messages?.length ?? 0;
    if (this.active >= count) this.active = Math.max(0, count - 1);
    // The question is about a message that is gone (the list reloaded after a session change).
    const asked = this.confirming?.entryId;
    if (asked !== undefined && !this.messages?.some((m) => m.entryId === asked))
      this.confirming = undefined;
  }

  protected override updated(): void {
    const target = this.#focusPending;
    this.#focusPending = undefined;
    if (target === "confirm") focusConfirmBar(this.renderRoot);
    else if (target === "list") this.focus();
  }

  protected override render(): unknown {
    const s = this.locale.strings;
    const messages = this.messages ?? [];
    if (messages.length === 0)
      return html`<p part="empty" class="empty" role="status">${this.busy ? s.loading : s.forkEmpty}</p>`;
    return html`<div
        part="listbox"
        class="listbox"
        role="listbox"
        tabindex="0"
        aria-label=${s.forkLabel}
        aria-describedby=${this.confirming === undefined ? "hint" : "confirm-text"}
        aria-busy=${this.busy ? "true" : "false"}
        aria-activedescendant="fork-${this.active}"
        @keydown=${this.#onKeyDown}
      >
        ${messages.map(
          (m, index) => html`<div
            part="option"
            class="option"
            id="fork-${index}"
            role="option"
            aria-selected=${index === this.active ? "true" : "false"}
            @click=${() => {
              this.active = index;
              this.choose(m);
            }}
          ><span class="text">${m.text}</span></div>`,
        )}
      </div>
      ${
        this.confirming === undefined
          ? html`<p part="hint" id="hint" class="hint">${s.forkHint}</p>`
          : confirmBar({
              text: format(s.forkConfirm, { text: excerpt(this.confirming.text) }),
              confirm: s.forkAction,
              cancel: s.dialogCancel,
              onConfirm: () => {
                const message = this.confirming;
                this.confirming = undefined;
                this.#focusPending = "list";
                if (message !== undefined) void this.fork(message);
              },
              onCancel: () => {
                this.confirming = undefined;
                this.#focusPending = "list";
              },
            })
      }`;
  }

  #onKeyDown(event: KeyboardEvent): void {
    const messages = this.messages ?? [];
    if (event.key === "Enter" || event.key === " ") {
      const message = messages[this.active];
      if (message === undefined) return;
      event.preventDefault();
      this.choose(message);
      return;
    }
    const labels = messages.map((m) => m.text);
    const next = this.navigate(event, this.active, messages.length, { labels });
    if (next === undefined) return;
    this.active = next;
    this.reveal(`fork-${next}`);
  }
}

/** A long message, cut to what fits a question about it. */
function excerpt(text: string): string {
  const line = text.trim().replace(/\s+/g, " ");
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-fork-picker": PiForkPicker;
  }
}
