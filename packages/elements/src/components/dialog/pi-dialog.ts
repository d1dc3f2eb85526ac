import type { DialogReply, PiClient, SessionModel } from "@pi-kit/client";
import { css, html, LitElement, type PropertyValues } from "lit";
import { PiDialogAnswerEvent } from "../../events/pi-dialog-answer.ts";
import { type DialogCancelReason, PiDialogCancelEvent } from "../../events/pi-dialog-cancel.ts";
import type { PiConnection } from "../../internal/context.ts";
import { ClaimController } from "../../internal/controllers/claim-controller.ts";
import { ConnectionController } from "../../internal/controllers/connection-controller.ts";
import { LocaleController } from "../../internal/controllers/locale-controller.ts";
import { format } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import { adoptPartStyles, LazyPart } from "../../internal/lazy-part.ts";
import { moveIndex, Typeahead } from "../../internal/list-navigation.ts";
import { listStyles } from "../../styles/list.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import type { DialogCountdown, PiDialogItem } from "./dialog-countdown.ts";
import type { TypingGuard } from "./typing-guard.ts";

/** The panel and its countdown, loaded with the first dialog of the page. */
const panelPart = new LazyPart(() => import("./dialog-panel.ts"));

export type { PiDialogItem } from "./dialog-countdown.ts";

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
 * PageUp PageDown and typing move through the options; ← → move between Yes and No. A dialog that
 * takes the focus from a text field ignores Enter and space for half a second: they were typed
 * for the text, not as an answer.
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
  /** Pending handler promises, settled when their dialog closes so nothing leaks. */
  readonly #resolvers = new Map<string, (reply: DialogReply) => void>();
  /** The handler role of the client this element answers for, held or waited for. */
  readonly #claim = new ClaimController(this, "dialog", (client) => this.#takeOver(client));
  #items: readonly PiDialogItem[] = [];
  #shown: PiDialogItem | undefined;
  #focusPending = false;
  #returnFocus: HTMLElement | undefined;
  /** Which keys the panel holds back right after it took the focus (loaded with the panel). */
  #typing: TypingGuard | undefined;
  #announcement = "";
  /** The dialogs' deadlines, from the first update with the panel (no deadline runs before). */
  #countdown: DialogCountdown | undefined;
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
    this.#countdown?.stop();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    this.#connection.resolve();
    if (changed.has("passive")) this.#register(this.#connection.connection);
    const previous = this.#shown;
    const closedHere = previous !== undefined && this.#closed.has(previous.request.id);
    // Standing by behind another dialog element of the same client: that one shows them.
    const standby = this.#claim.standby;
    const source = this.dialogs ?? (standby ? [] : (this.#connection.snapshot?.dialogs ?? []));
    const ids = new Set(source.map((d) => d.request.id));
    for (const id of this.#closed) if (!ids.has(id)) this.#closed.delete(id);
    // The panel normally loaded before an update with dialogs (see scheduleUpdate); if its chunk
    // failed, nothing shows until it loads (tried again below), the countdown with it.
    const panel = panelPart.module;
    this.#countdown ??= panel && this.#countdownOf(panel);
    const countdown = this.#countdown;
    this.#typing ??= panel && new panel.TypingGuard();
    countdown?.keep(ids);
    const now = Date.now();
    this.#items = source.filter((d) => {
      if (this.#closed.has(d.request.id)) return false;
      const deadline = countdown?.deadline(d, now);
      return deadline === undefined || deadline > now;
    });
    const next = this.#items[0];
    const gone =
      previous !== undefined && !this.#items.some((d) => d.request.id === previous.request.id);
    if (gone && !closedHere) {
      // Closed elsewhere (the client's timeout, a stale run, another view): say so, politely.
      const expired = (countdown?.deadline(previous, now) ?? Infinity) <= now + 250;
      this.#announce(expired ? "dialogTimedOut" : "dialogClosed", previous);
    }
    if (next?.request.id !== previous?.request.id) {
      this.active = 0;
      this.#focusPending = next !== undefined;
      if (next !== undefined && previous === undefined) this.#returnFocus = deepActiveElement();
      // Only the first of a run of dialogs takes the focus from outside; the next ones follow answers.
      this.#typing?.opened(
        previous === undefined ? this.#returnFocus : undefined,
        performance.now(),
      );
    }
    this.#shown = next;
    if (next === undefined) this.#internals.states.delete("open");
    else this.#internals.states.add("open");
    panelPart.reload(next !== undefined, this);
    if (next !== undefined && panel !== undefined) adoptPartStyles(this, panel.panelStyles);
  }

  protected override render(): unknown {
    const item = this.#shown;
    const panel = panelPart.module;
    const live = html`<div class="sr-only" role="status">${this.#announcement}</div>`;
    if (item === undefined) return live;
    if (panel === undefined) return live;
    const left = this.#countdown?.left(item, Date.now());
    return html`${live}${panel.renderPanel(this, {
      request: item.request,
      strings: this.#locale.strings,
      total: this.#items.length,
      left,
      onListKey: this.#onListKey,
      typing: this.#typing,
    })}`;
  }

  protected override updated(): void {
    this.#countdown?.schedule();
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

  #countdownOf(panel: typeof import("./dialog-panel.ts")): DialogCountdown {
    return new panel.DialogCountdown(
      this,
      (item) => {
        if (item === this.#shown) this.#announce("dialogTimedOut", item);
        this.#cancel(item, "timeout");
      },
      (item, seconds) => this.#announce("dialogTimeWarning", item, seconds),
    );
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

  /** Whether a dialog may be waiting (the next update then needs the panel). */
  #mayShow(): boolean {
    return (this.dialogs ?? this.#connection.snapshot?.dialogs ?? []).length > 0;
  }

  #announce(
    key: "dialogTimedOut" | "dialogClosed" | "dialogTimeWarning",
    item: PiDialogItem,
    seconds = 0,
  ): void {
    this.#announcement = format(this.#locale.strings[key], { title: item.request.title, seconds });
  }

  #register(connection: PiConnection | undefined): void {
    this.#claim.watch(this.passive || !this.isConnected ? undefined : connection?.client);
  }

  #takeOver(client: PiClient): () => void {
    this.requestUpdate();
    return client.ui.setDialogHandler(
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
