import type { DialogReply, PiClient, SessionModel } from "@pi-kit/client";
import type { DialogRequest } from "@pi-kit/protocol";
import { css, html, LitElement, type PropertyValues } from "lit";
import { keyed } from "lit/directives/keyed.js";
import { PiDialogAnswerEvent } from "../../events/pi-dialog-answer.ts";
import { type DialogCancelReason, PiDialogCancelEvent } from "../../events/pi-dialog-cancel.ts";
import { claim, release } from "../../internal/claims.ts";
import type { PiConnection } from "../../internal/context.ts";
import { ConnectionController } from "../../internal/controllers/connection-controller.ts";
import { LocaleController } from "../../internal/controllers/locale-controller.ts";
import { format } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import { adoptPartStyles, LazyPart } from "../../internal/lazy-part.ts";
import { moveIndex, Typeahead } from "../../internal/list-navigation.ts";
import { listStyles } from "../../styles/list.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";

/** The panel, loaded with the first dialog of the page. */
const panelPart = new LazyPart(() => import("./dialog-panel.ts"));

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
  static override styles = [tokenStyles, baseStyles, listStyles, css`:host { display: block; }`];
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
  readonly #typeahead = new Typeahead();
  readonly #connection = new ConnectionController(this, {
    observe: true,
    changed: (next) => this.#register(next),
  });
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

  /**
   * The first render in a language whose table still loads waits for it (no flash of English),
   * and the first render with a dialog waits for the panel, so `updateComplete` covers both.
   */
  protected override scheduleUpdate(): Promise<unknown> | undefined {
    return panelPart.schedule(
      () => this.#mayShow(),
      () => this.#locale.schedule(() => super.scheduleUpdate()),
    );
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
    // Normally loaded before this update (see scheduleUpdate); if its chunk failed, try again.
    const panel = panelPart.module;
    panelPart.reload(next !== undefined, this);
    if (next !== undefined && panel !== undefined) adoptPartStyles(this, panel.panelStyles);
  }

  protected override render(): unknown {
    const item = this.#shown;
    const panel = panelPart.module;
    const live = html`<div class="sr-only" role="status">${this.#announcement}</div>`;
    if (item === undefined) return live;
    if (panel === undefined) return live;
    const deadline = this.#deadlineOf(item, Date.now());
    const left =
      deadline === undefined ? undefined : Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    // Keyed by the request, so a new dialog gets fresh fields.
    return html`${live}${keyed(
      item.request.id,
      panel.renderPanel(this, {
        request: item.request,
        strings: this.#locale.strings,
        total: this.#items.length,
        left,
        urgent: left !== undefined && left <= WARN_AT_SECONDS,
        onListKey: this.#onListKey,
      }),
    )}`;
  }

  protected override updated(): void {
    this.#schedule();
    const panel = panelPart.module;
    if (this.#focusPending && panel !== undefined) {
      this.#focusPending = false;
      this.renderRoot.querySelector<HTMLElement>("[data-autofocus]")?.focus();
      panel.scrollActive(this);
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

  readonly #onListKey = (event: KeyboardEvent): void => {
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
    void this.updateComplete.then(() => panelPart.module?.scrollActive(this));
  };

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

  /** Whether a dialog may be waiting (the next update then needs the panel). */
  #mayShow(): boolean {
    return (this.dialogs ?? this.#connection.snapshot?.dialogs ?? []).length > 0;
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
