import type { PiClient, SessionModel } from "@pi-kit/client";
import { html, LitElement } from "lit";
import { repeat } from "lit/directives/repeat.js";
import { PiNotifyEvent } from "../../events/pi-notify.ts";
import { ClaimController } from "../../internal/controllers/claim-controller.ts";
import { ConnectionController } from "../../internal/controllers/connection-controller.ts";
import { LocaleController } from "../../internal/controllers/locale-controller.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import { adoptPartStyles, LazyPart } from "../../internal/lazy-part.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import { toastStyles } from "./pi-toasts.styles.ts";
import type { PiToast, ToastType } from "./toast.ts";
import type { ToastCardView } from "./toast-card.ts";

export type { PiToast, ToastType } from "./toast.ts";

/**
 * A diagnostic pi wrote to stderr as a toast: pi starts its errors with `Error:` and its warnings
 * with `Warning:`, which the toast's own label says instead; anything else is a warning.
 */
function stderrToast(text: string): { message: string; type: ToastType } {
  const match = /^\s*(Error|Warning):\s*/.exec(text);
  const type = match?.[1] === "Error" ? "error" : "warning";
  return { message: match === null ? text : text.slice(match[0].length), type };
}

interface Timer {
  handle: ReturnType<typeof setTimeout> | undefined;
  remaining: number;
  startedAt: number;
}

let toastCounter = 0;

/** The cards, loaded with the first toast of the page. */
const cardPart = new LazyPart(() => import("./toast-card.ts"));

/** How long each kind stays, in `duration`s: the more serious, the longer, but none forever. */
const LIFETIME: Readonly<Record<ToastType, number>> = { info: 1, warning: 2, error: 4 };

/**
 * Shows pi's `notify` requests as toasts, and what pi writes to stderr (its diagnostics, such as
 * an extension that failed to load: a `pi_stderr` event of the client) as warnings, or errors when
 * pi says `Error:` (pi's own `Error:` / `Warning:` prefix gives way to the toast's label). Info disappears after `duration`, warnings after twice
 * that, errors after four times that (each has a dismiss button); hovering or focusing the stack
 * pauses the clocks. Info and warnings are announced politely (`role="status"`), errors
 * assertively (`role="alert"`). On a narrow screen (up to 30rem) only the newest toast shows, on
 * one line, so the stack never takes the conversation's room.
 *
 * One element per client shows its notifications: when several `<pi-toasts>` serve the same
 * client (say, the one `<pi-chat>` renders and one the page placed), the first connected wins and
 * the others stand by until it is removed. `show()` works on every one of them.
 *
 * Keyboard: Tab reaches each dismiss button; Escape dismisses the focused toast.
 *
 * @tagname pi-toasts
 * @summary Notifications from pi.
 * @event pi-notify - Before a notification from pi is shown; cancel to show it yourself. {@link PiNotifyEvent}
 * @csspart stack - The column of toasts.
 * @csspart toast - One toast.
 * @csspart type - The "Warning" / "Error" label.
 * @csspart message - The text.
 * @csspart dismiss-button - The × button.
 * @cssproperty [--pi-color-warning=#7a5200] - Warning accent.
 * @cssproperty [--pi-color-danger=#b42318] - Error accent.
 * @cssproperty [--position=fixed] - `fixed` (corner of the viewport) or `static` (in flow).
 * @cssproperty [--inset=auto 1rem 1rem auto] - Where the fixed stack sits.
 * @cssproperty [--width=22rem] - Toast width.
 */
export class PiToasts extends LitElement {
  static override styles = [tokenStyles, baseStyles, toastStyles];
  static override properties = {
    client: { attribute: false },
    session: { attribute: false },
    strings: { attribute: false },
    duration: { type: Number },
    max: { type: Number },
    theme: { type: String, reflect: true },
    toasts: { state: true },
  };

  /** The client whose notifications to show. */
  declare client: PiClient | undefined;
  /** Unused (notifications are events, not session state); accepted so the element fits a provider. */
  declare session: SessionModel | undefined;
  /** Overrides for the built-in strings of the resolved language. */
  declare strings: Partial<PiStrings> | undefined;
  /** Milliseconds an info toast stays (warnings twice as long, errors four times); 0 keeps all. */
  declare duration: number;
  /** Most toasts on screen; the oldest goes first. */
  declare max: number;
  /** `light`, `dark`, or `auto` / unset to follow `prefers-color-scheme`. */
  declare theme: "light" | "dark" | "auto" | undefined;
  /** The toasts on screen, oldest first. */
  declare toasts: readonly PiToast[];

  readonly #connection = new ConnectionController(this, {
    changed: (next) => this.#claim.watch(next?.client),
  });
  readonly #timers = new Map<string, Timer>();
  /** The client whose notifications this element shows or waits to show. */
  readonly #claim = new ClaimController(this, "toasts", (client) => this.#subscribe(client));
  #paused = false;
  #hovered: string | undefined;
  #focused = false;
  readonly #locale = new LocaleController(this);

  /**
   * The first render in a language whose table still loads waits for it (no flash of English),
   * and the first render with a toast waits for the cards, so `updateComplete` covers both.
   */
  protected override scheduleUpdate(): Promise<unknown> | undefined {
    return cardPart.schedule(
      () => this.toasts.length > 0,
      () => this.#locale.schedule(() => super.scheduleUpdate()),
    );
  }

  constructor() {
    super();
    this.duration = 5000;
    this.max = 5;
    this.toasts = [];
  }

  /** Shows a toast; returns its id. */
  show(message: string, type: ToastType = "info"): string {
    const id = `toast-${++toastCounter}`;
    let next = [...this.toasts, { id, message, type }];
    while (next.length > Math.max(1, this.max)) {
      const [oldest, ...rest] = next;
      if (oldest !== undefined) this.#stop(oldest.id);
      next = rest;
    }
    this.toasts = next;
    const ms = this.duration <= 0 ? 0 : this.duration * LIFETIME[type];
    if (ms > 0) {
      const timer: Timer = { handle: undefined, remaining: ms, startedAt: 0 };
      this.#timers.set(id, timer);
      // The clock starts when the toast is on screen (see updated): the cards may still load.
      if (!this.#paused && cardPart.module !== undefined) this.#start(id, timer);
    }
    return id;
  }

  /** Removes a toast. */
  dismiss(id: string): void {
    this.#stop(id);
    this.toasts = this.toasts.filter((t) => t.id !== id);
    // A toast taken away under the pointer never reports the pointer leaving it.
    if (this.#hovered === id) this.#hover(undefined);
  }

  /** Removes every toast. */
  clear(): void {
    for (const id of this.#timers.keys()) this.#stop(id);
    this.toasts = [];
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const timer of this.#timers.values()) clearTimeout(timer.handle);
  }

  protected override willUpdate(): void {
    this.#connection.resolve();
    const cards = cardPart.module;
    cardPart.reload(this.toasts.length > 0, this);
    if (cards !== undefined) adoptPartStyles(this, cards.toastCardStyles);
  }

  protected override updated(): void {
    if (cardPart.module !== undefined && !this.#paused)
      for (const [id, timer] of this.#timers)
        if (timer.handle === undefined) this.#start(id, timer);
    // A focused toast that was removed takes the focus with it without a focusout event.
    if (this.#focused && this.shadowRoot?.activeElement == null) {
      this.#focused = false;
      this.#updatePause();
    }
  }

  protected override render(): unknown {
    // Both live regions always exist: a region added together with its text is often not announced.
    const polite = this.toasts.filter((t) => t.type !== "error");
    const urgent = this.toasts.filter((t) => t.type === "error");
    const newest = this.toasts.at(-1)?.id;
    return html`<div
      part="stack"
      class="stack"
      aria-label=${this.#locale.strings.notifications}
      role="region"
      @focusin=${() => {
        this.#focused = true;
        this.#updatePause();
      }}
      @focusout=${(e: FocusEvent) => {
        this.#focused = this.renderRoot.contains(e.relatedTarget as Node | null);
        this.#updatePause();
      }}
      @keydown=${this.#onKeyDown}
    >
      <div role="alert" class="region">${this.#list(urgent, newest)}</div>
      <div role="status" class="region">${this.#list(polite, newest)}</div>
    </div>`;
  }

  #list(toasts: readonly PiToast[], newest: string | undefined): unknown {
    const cards = cardPart.module;
    if (cards === undefined) return [];
    const view: ToastCardView = {
      strings: this.#locale.strings,
      newest,
      dismiss: (id, keyboard) => (keyboard ? this.#dismissFocused(id) : this.dismiss(id)),
      hover: (id) => this.#hover(id),
    };
    return repeat(
      toasts,
      (t) => t.id,
      (t) => cards.toastCard(t, view),
    );
  }

  #onKeyDown(event: KeyboardEvent): void {
    if (event.key !== "Escape") return;
    const id = (event.target as HTMLElement).closest<HTMLElement>(".toast")?.dataset.id;
    if (id === undefined) return;
    event.preventDefault();
    event.stopPropagation();
    this.#dismissFocused(id);
  }

  // Dismissing from the keyboard would drop focus on the body; hand it to a neighbour instead.
  // (A mouse click does not: a focused neighbour would hold its clock still for no reason.)
  #dismissFocused(id: string): void {
    const index = this.toasts.findIndex((t) => t.id === id);
    this.dismiss(id);
    const neighbour = this.toasts[Math.min(index, this.toasts.length - 1)];
    if (neighbour === undefined) return;
    void this.updateComplete.then(() =>
      this.renderRoot.querySelector<HTMLElement>(`[data-id="${neighbour.id}"] .dismiss`)?.focus(),
    );
  }

  #hover(id: string | undefined): void {
    this.#hovered = id;
    this.#updatePause();
  }

  // The clocks stop while a toast is under the pointer or has the focus (WCAG 2.2.1).
  #updatePause(): void {
    this.#pause(this.#hovered !== undefined || this.#focused);
  }

  #pause(paused: boolean): void {
    if (paused === this.#paused) return;
    this.#paused = paused;
    const now = performance.now();
    for (const [id, timer] of this.#timers) {
      if (paused) {
        clearTimeout(timer.handle);
        timer.handle = undefined;
        timer.remaining -= now - timer.startedAt;
      } else this.#start(id, timer);
    }
  }

  #start(id: string, timer: Timer): void {
    timer.startedAt = performance.now();
    timer.handle = setTimeout(() => this.dismiss(id), Math.max(0, timer.remaining));
  }

  #stop(id: string): void {
    clearTimeout(this.#timers.get(id)?.handle);
    this.#timers.delete(id);
  }

  #subscribe(client: PiClient): () => void {
    const offNotify = client.on("extension_ui_request", (request) => {
      if (request.method !== "notify") return;
      // A newer pi may add types; anything unknown is shown as info rather than dropped.
      const type: ToastType =
        request.notifyType === "warning" || request.notifyType === "error"
          ? request.notifyType
          : "info";
      if (this.dispatchEvent(new PiNotifyEvent(request.message, type)))
        this.show(request.message, type);
    });
    // pi's diagnostics that have no RPC record (an extension that failed to load, a model it
    // could not restore) come on its stderr, through a bridge or from the child process alike.
    const offStderr = client.on("pi_stderr", ({ text }) => {
      const { message, type } = stderrToast(text);
      if (this.dispatchEvent(new PiNotifyEvent(message, type, "stderr"))) this.show(message, type);
    });
    return () => {
      offNotify();
      offStderr();
    };
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-toasts": PiToasts;
  }
}
