import type { DialogReply, PiClient, SessionModel } from "@pi-kit/client";
import type { DialogRequest } from "@pi-kit/protocol";
import { html, LitElement, nothing, type PropertyValues } from "lit";
import { keyed } from "lit/directives/keyed.js";
import { claim, release } from "../../internal/claims.ts";
import type { PiConnection } from "../../internal/context.ts";
import { ConnectionController } from "../../internal/controllers/connection-controller.ts";
import { LocaleController } from "../../internal/controllers/locale-controller.ts";
import { format, type PiStrings } from "../../internal/i18n/i18n.ts";
import { moveIndex, Typeahead } from "../../internal/list-navigation.ts";
import { listStyles } from "../../styles/list.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import {
  type DialogCancelReason,
  PiDialogAnswerEvent,
  PiDialogCancelEvent,
} from "./dialog-events.ts";
import { dialogStyles } from "./pi-dialog.styles.ts";

/** A dialog to show: pi's request and, when it has a timeout, its deadline (epoch ms). */
export interface PiDialogItem {
  readonly request: DialogRequest;
  /** When it expires; derived from `request.timeout` when absent. The client's `PendingDialog` fits. */
  readonly deadline?: number | undefined;
}

/** Seconds left at which the countdown is announced once to screen readers. */
const WARN_AT_SECONDS = 10;

/**
 * Shows pi's extension dialogs (select, confirm, input, editor) one at a time, oldest first, as a
 * non-modal panel that leaves the transcript visible and usable. Focus moves into a dialog when
 * it opens and returns where it was when the last one closes. With a client it registers as the
 * client's dialog handler and answers through it; without one, set `dialogs` and listen for
 * `pi-dialog-answer` / `pi-dialog-cancel`.
 *
 * One element per client answers: when several `<pi-dialog>`s serve the same client (say, the one
 * `<pi-chat>` renders and one the page placed), the first connected wins and the others stand by,
 * showing nothing, until it is removed. A `passive` dialog never registers and always shows.
 *
 * Keyboard: Escape cancels; Enter answers (Ctrl/⌘+Enter in the editor); in a select ↑ ↓ Home End
 * PageUp PageDown and typing move through the options; ← → move between Yes and No.
 *
 * @tagname pi-dialog
 * @summary Extension dialogs, non-modal.
 * @event pi-dialog-answer - Before a dialog is answered; cancel to keep it open. {@link PiDialogAnswerEvent}
 * @event pi-dialog-cancel - Before a dialog is cancelled (user or timeout). {@link PiDialogCancelEvent}
 * @csspart panel - The dialog panel.
 * @csspart header - Title row with the counter and countdown.
 * @csspart title - The dialog title.
 * @csspart counter - "1 of 3" when several dialogs wait.
 * @csspart countdown - Seconds left, when pi set a timeout.
 * @csspart countdown-bar - The shrinking time bar.
 * @csspart message - The confirm message.
 * @csspart listbox - The options of a select.
 * @csspart option - One option.
 * @csspart input - The text field of an input dialog.
 * @csspart textarea - The text area of an editor dialog.
 * @csspart hint - The keyboard hint.
 * @csspart actions - The button row.
 * @csspart button - Every button.
 * @csspart confirm-button - OK / Yes / Submit.
 * @csspart watching - The options of a dialog shown to a watching viewer, who cannot answer.
 * @csspart cancel-button - Cancel / No.
 * @cssproperty [--pi-color-accent=#2f4cc9] - Panel accent, active option, primary button.
 * @cssproperty [--pi-color-warning=#7a5200] - Countdown in its last seconds.
 * @cssproperty [--max-panel-height=50dvh] - Tallest the panel grows; its options or text scroll inside.
 * @cssproperty [--max-height=16rem] - Height of the select list and editor before they scroll.
 * @cssstate open - A dialog is showing.
 */
export class PiDialog extends LitElement {
  static override styles = [tokenStyles, baseStyles, listStyles, dialogStyles];
  static override properties = {
    client: { attribute: false },
    session: { attribute: false },
    dialogs: { attribute: false },
    strings: { attribute: false },
    passive: { type: Boolean },
    brief: { type: Boolean },
    watching: { type: Boolean, reflect: true },
    theme: { type: String, reflect: true },
    active: { state: true },
  };

  /** The client whose dialogs to show and answer. */
  declare client: PiClient | undefined;
  /** A session model whose dialogs to show when there is no client (answers only as events). */
  declare session: SessionModel | undefined;
  /** Dialogs to show instead of the session's (drive it without a client). */
  declare dialogs: readonly PiDialogItem[] | undefined;
  /** Overrides for the built-in strings of the resolved language. */
  declare strings: Partial<PiStrings> | undefined;
  /** Do not register as the client's dialog handler (another handler defers to this view). */
  declare passive: boolean;
  /**
   * Shows the first line of a question only: the page around it shows the rest already (a tool
   * card shows the command or diff its approval asks about).
   */
  declare brief: boolean;
  /**
   * Show dialogs without answering them: another viewer of the bridge session is in control.
   * Nothing is sent to pi, not even on a timeout (pi gives up by itself).
   */
  declare watching: boolean;
  /** `light`, `dark`, or `auto` / unset to follow `prefers-color-scheme`. */
  declare theme: "light" | "dark" | "auto" | undefined;
  /**
   * The highlighted option of a select.
   * @internal
   */
  declare active: number;

  readonly #internals = this.attachInternals();
  readonly #connection = new ConnectionController(this, {
    observe: true,
    changed: (next) => this.#register(next),
  });
  readonly #typeahead = new Typeahead();
  /** Ids answered or cancelled here, hidden until the source drops them. */
  readonly #closed = new Set<string>();
  /** Deadlines of items given without one. */
  readonly #deadlines = new Map<string, number>();
  /** Pending handler promises, settled when their dialog closes so nothing leaks. */
  readonly #resolvers = new Map<string, (reply: DialogReply) => void>();
  readonly #warned = new Set<string>();
  #offHandler: (() => void) | undefined;
  /** The client whose handler role this element holds or waits for. */
  #claimed: PiClient | undefined;
  #items: readonly PiDialogItem[] = [];
  #shown: PiDialogItem | undefined;
  #focusPending = false;
  #returnFocus: HTMLElement | undefined;
  #announcement = "";
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #locale = new LocaleController(this);

  /** The first render in a language whose table still loads waits for it (no flash of English). */
  protected override scheduleUpdate(): Promise<unknown> | undefined {
    return this.#locale.schedule(() => super.scheduleUpdate());
  }

  constructor() {
    super();
    this.passive = false;
    this.brief = false;
    this.watching = false;
    this.active = 0;
  }

  /** The dialogs waiting, oldest first (the first is showing). */
  get pending(): readonly PiDialogItem[] {
    return this.#items;
  }

  /** Applies pending session changes now instead of on the next animation frame. */
  flush(): void {
    this.#connection.flush();
    this.requestUpdate();
  }

  /** Answers the showing dialog (as its confirm button would). */
  answer(value: string | boolean): void {
    const item = this.#shown;
    if (item === undefined || this.watching) return;
    if (!this.dispatchEvent(new PiDialogAnswerEvent(item.request, value))) return;
    this.#closed.add(item.request.id);
    this.#connection.client?.ui.answer(item.request.id, value);
    this.#settle(item.request.id);
    this.requestUpdate();
  }

  /** Cancels the showing dialog (as Escape would). */
  cancel(): void {
    const item = this.#shown;
    if (item !== undefined && !this.watching) this.#cancel(item, "user");
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#timer);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    this.#connection.resolve();
    if (changed.has("passive")) this.#register(this.#connection.connection);
    const previous = this.#shown;
    const closedHere = previous !== undefined && this.#closed.has(previous.request.id);
    // Standing by behind another dialog element of the same client: that one shows them.
    const standby = this.#claimed !== undefined && this.#offHandler === undefined;
    const source = this.dialogs ?? (standby ? [] : (this.#connection.snapshot?.dialogs ?? []));
    const ids = new Set(source.map((d) => d.request.id));
    for (const set of [this.#closed, this.#warned])
      for (const id of set) if (!ids.has(id)) set.delete(id);
    for (const id of this.#deadlines.keys()) if (!ids.has(id)) this.#deadlines.delete(id);
    const now = Date.now();
    this.#items = source.filter((d) => {
      if (this.#closed.has(d.request.id)) return false;
      const deadline = this.#deadlineOf(d, now);
      return deadline === undefined || deadline > now;
    });
    const next = this.#items[0];
    const gone =
      previous !== undefined && !this.#items.some((d) => d.request.id === previous.request.id);
    if (gone && !closedHere) {
      // Closed elsewhere (the client's timeout, a stale run, another view): say so, politely.
      const expired = (this.#deadlineOf(previous, now) ?? Infinity) <= now + 250;
      this.#announcement = format(
        expired ? this.#locale.strings.dialogTimedOut : this.#locale.strings.dialogClosed,
        {
          title: previous.request.title,
        },
      );
    }
    if (next?.request.id !== previous?.request.id) {
      this.active = 0;
      this.#focusPending = next !== undefined;
      if (next !== undefined && previous === undefined) this.#returnFocus = deepActiveElement();
    }
    this.#shown = next;
    if (next === undefined) this.#internals.states.delete("open");
    else this.#internals.states.add("open");
  }

  protected override render(): unknown {
    const s = this.#locale.strings;
    const item = this.#shown;
    const live = html`<div class="sr-only" role="status">${this.#announcement}</div>`;
    if (item === undefined) return live;
    const request = item.request;
    const total = this.#items.length;
    const deadline = this.#deadlineOf(item, Date.now());
    const left =
      deadline === undefined ? undefined : Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    const timeout = request.method === "editor" ? undefined : request.timeout;
    const fraction = left === undefined || !timeout ? 1 : Math.min(1, (left * 1000) / timeout);
    const described = [
      total > 1 ? "counter" : "",
      request.method === "confirm" ? "message" : "",
      left !== undefined ? "countdown" : "",
      "hint",
    ]
      .filter(Boolean)
      .join(" ");
    return html`${live}${keyed(
      request.id,
      html`<section
      part="panel"
      class="panel ${request.method}"
      role=${request.method === "confirm" ? "alertdialog" : "dialog"}
      aria-modal="false"
      aria-labelledby="title"
      aria-describedby=${described}
      @keydown=${this.#onKeyDown}
    >
      <div part="header" class="header">
        <h2 part="title" id="title" class="title">${this.brief ? request.title.split("\n")[0] : request.title}</h2>
        ${total > 1 ? html`<span part="counter" id="counter" class="counter">${format(s.dialogCounter, { index: 1, total })}</span>` : nothing}
        ${
          left === undefined
            ? nothing
            : html`<span part="countdown" id="countdown" class=${left <= WARN_AT_SECONDS ? "countdown urgent" : "countdown"}>${format(s.dialogSecondsLeft, { seconds: left })}</span>`
        }
      </div>
      ${left === undefined ? nothing : html`<div class="bar" aria-hidden="true"><div part="countdown-bar" style="transform: scaleX(${fraction})"></div></div>`}
      ${this.watching ? this.#watchedBody(request) : this.#body(request)}
    </section>`,
    )}`;
  }

  protected override updated(): void {
    this.#schedule();
    if (this.#focusPending) {
      this.#focusPending = false;
      this.renderRoot.querySelector<HTMLElement>("[data-autofocus]")?.focus();
      this.#scrollActive();
    } else if (this.#shown === undefined && this.#returnFocus !== undefined) {
      const target = this.#returnFocus;
      this.#returnFocus = undefined;
      // Only take focus back if it was lost with the panel (or is still on us), never from elsewhere.
      const active = deepActiveElement();
      if (
        target.isConnected &&
        (active === undefined || active === document.body || this.shadowRoot?.contains(active))
      )
        target.focus();
    }
  }

  /** What a watcher sees: the question and its choices, with no way to answer. */
  #watchedBody(request: DialogRequest): unknown {
    const s = this.#locale.strings;
    const shown =
      request.method === "confirm"
        ? html`<p part="message" id="message" class="message">${request.message}</p>`
        : request.method === "select"
          ? html`<ul part="watching" class="listbox watched">
              ${request.options.map((option) => html`<li class="option">${option}</li>`)}
            </ul>`
          : request.method === "editor" && request.prefill
            ? html`<p part="watching" class="message">${request.prefill}</p>`
            : nothing;
    return html`${shown}
      <div part="actions" class="actions">
        <span part="hint" id="hint" class="hint">${s.dialogWatching}</span>
      </div>`;
  }

  #body(request: DialogRequest): unknown {
    const s = this.#locale.strings;
    const cancel = html`<button part="button cancel-button" @click=${() => this.cancel()}>${s.dialogCancel}</button>`;
    switch (request.method) {
      case "select":
        return html`<div
            part="listbox"
            class="listbox"
            role="listbox"
            tabindex="0"
            data-autofocus
            aria-labelledby="title"
            aria-activedescendant=${request.options.length ? `option-${this.active}` : nothing}
            @keydown=${this.#onListKey}
          >
            ${request.options.map(
              (option, index) => html`<div
                part="option"
                class="option"
                id="option-${index}"
                role="option"
                aria-selected=${index === this.active ? "true" : "false"}
                @click=${() => this.answer(option)}
                @pointermove=${() => {
                  this.active = index;
                }}
              >${option}</div>`,
            )}
          </div>
          <div part="actions" class="actions">
            <span part="hint" id="hint" class="hint">${s.dialogSelectHint}</span>${cancel}
          </div>`;
      case "confirm":
        return html`<p part="message" id="message" class="message">${request.message}</p>
          <div part="actions" class="actions" @keydown=${this.#onConfirmKey}>
            <span part="hint" id="hint" class="hint">${s.dialogConfirmHint}</span>
            <button part="button cancel-button" data-autofocus @click=${() => this.answer(false)}>${s.dialogNo}</button>
            <button part="button confirm-button" class="primary" @click=${() => this.answer(true)}>${s.dialogYes}</button>
          </div>`;
      case "input":
        return html`<input
            part="input"
            class="field"
            type="text"
            data-autofocus
            aria-labelledby="title"
            placeholder=${request.placeholder ?? ""}
            @keydown=${(e: KeyboardEvent) => {
              if (e.key === "Enter" && !e.isComposing && e.keyCode !== 229) {
                e.preventDefault();
                this.answer((e.target as HTMLInputElement).value);
              }
            }}
          />
          <div part="actions" class="actions">
            <span part="hint" id="hint" class="hint">${s.dialogInputHint}</span>${cancel}
            <button part="button confirm-button" class="primary" @click=${() => this.answer(this.#fieldValue())}>${s.dialogOk}</button>
          </div>`;
      case "editor":
        return html`<textarea
            part="textarea"
            class="field"
            rows="6"
            data-autofocus
            aria-labelledby="title"
            .value=${request.prefill ?? ""}
            @keydown=${(e: KeyboardEvent) => {
              if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !e.isComposing) {
                e.preventDefault();
                this.answer((e.target as HTMLTextAreaElement).value);
              }
            }}
          ></textarea>
          <div part="actions" class="actions">
            <span part="hint" id="hint" class="hint">${s.dialogEditorHint}</span>${cancel}
            <button part="button confirm-button" class="primary" @click=${() => this.answer(this.#fieldValue())}>${s.dialogSubmit}</button>
          </div>`;
    }
  }

  #onKeyDown(event: KeyboardEvent): void {
    if (event.key !== "Escape" || event.isComposing) return;
    event.preventDefault();
    // Esc must not also reach an enclosing chat, where it would stop the run.
    event.stopPropagation();
    this.cancel();
  }

  #onListKey(event: KeyboardEvent): void {
    const shown = this.#shown?.request;
    if (shown?.method !== "select") return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      const option = shown.options[this.active];
      if (option !== undefined) this.answer(option);
      return;
    }
    const next =
      moveIndex(event.key, this.active, shown.options.length) ??
      this.#typeahead.match(event, shown.options, this.active);
    if (next === undefined) return;
    event.preventDefault();
    this.active = next;
    void this.updateComplete.then(() => this.#scrollActive());
  }

  #onConfirmKey(event: KeyboardEvent): void {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const buttons = [...this.renderRoot.querySelectorAll<HTMLButtonElement>(".actions button")];
    const index = buttons.indexOf(event.target as HTMLButtonElement);
    if (index < 0) return;
    event.preventDefault();
    buttons[
      (index + (event.key === "ArrowRight" ? 1 : buttons.length - 1)) % buttons.length
    ]?.focus();
  }

  #fieldValue(): string {
    return (
      this.renderRoot.querySelector<HTMLInputElement | HTMLTextAreaElement>(".field")?.value ?? ""
    );
  }

  #scrollActive(): void {
    this.renderRoot.querySelector(`#option-${this.active}`)?.scrollIntoView({ block: "nearest" });
  }

  #cancel(item: PiDialogItem, reason: DialogCancelReason): void {
    if (!this.dispatchEvent(new PiDialogCancelEvent(item.request, reason)) && reason === "user")
      return;
    this.#closed.add(item.request.id);
    if (!this.watching) this.#connection.client?.ui.cancel(item.request.id);
    this.#settle(item.request.id);
    this.requestUpdate();
  }

  #settle(id: string): void {
    const resolve = this.#resolvers.get(id);
    this.#resolvers.delete(id);
    // The dialog is already answered through the client, so this late `undefined` is ignored.
    resolve?.(undefined);
  }

  #deadlineOf(item: PiDialogItem, now: number): number | undefined {
    if (item.deadline !== undefined) return item.deadline;
    const request = item.request;
    if (request.method === "editor" || !request.timeout || request.timeout <= 0) return undefined;
    let deadline = this.#deadlines.get(request.id);
    if (deadline === undefined) {
      deadline = now + request.timeout;
      this.#deadlines.set(request.id, deadline);
    }
    return deadline;
  }

  // Wakes at the next whole second of the showing countdown and at the first deadline of any
  // dialog, never on a fixed fast interval.
  #schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const now = Date.now();
    let wake = Infinity;
    for (const item of this.#items) {
      const deadline = this.#deadlineOf(item, now);
      if (deadline === undefined) continue;
      wake = Math.min(wake, deadline);
      if (item === this.#shown) wake = Math.min(wake, now + ((deadline - now) % 1000 || 1000));
    }
    if (wake === Infinity || !this.isConnected) return;
    this.#timer = setTimeout(() => this.#tick(), Math.max(0, wake - now) + 5);
  }

  #tick(): void {
    const now = Date.now();
    for (const item of this.#items) {
      const deadline = this.#deadlineOf(item, now);
      if (deadline === undefined) continue;
      if (deadline <= now) {
        if (item === this.#shown)
          this.#announcement = format(this.#locale.strings.dialogTimedOut, {
            title: item.request.title,
          });
        this.#cancel(item, "timeout");
      } else if (
        item === this.#shown &&
        deadline - now <= WARN_AT_SECONDS * 1000 &&
        !this.#warned.has(item.request.id)
      ) {
        this.#warned.add(item.request.id);
        const timeout = item.request.method === "editor" ? 0 : (item.request.timeout ?? 0);
        // A dialog that was short from the start is not worth a second announcement.
        if (timeout > WARN_AT_SECONDS * 1000 * 1.5)
          this.#announcement = format(this.#locale.strings.dialogTimeWarning, {
            seconds: Math.ceil((deadline - now) / 1000),
            title: item.request.title,
          });
      }
    }
    this.requestUpdate();
  }

  #register(connection: PiConnection | undefined): void {
    const client = this.passive || !this.isConnected ? undefined : connection?.client;
    if (client === this.#claimed) return;
    this.#offHandler?.();
    this.#offHandler = undefined;
    if (this.#claimed !== undefined) release("dialog", this.#claimed, this);
    this.#claimed = client;
    if (client !== undefined && claim("dialog", client, this, () => this.#takeOver(client)))
      this.#takeOver(client);
  }

  #takeOver(client: PiClient): void {
    this.requestUpdate();
    this.#offHandler = client.ui.setDialogHandler(
      (request, { signal }) =>
        new Promise<DialogReply>((resolve) => {
          this.#resolvers.set(request.id, resolve);
          signal.addEventListener("abort", () => this.#settle(request.id), { once: true });
        }),
    );
  }
}

/** The focused element, looking through open shadow roots. */
function deepActiveElement(): HTMLElement | undefined {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : undefined;
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-dialog": PiDialog;
  }
}
