import { html, type PropertyValues, type TemplateResult } from "lit";
import { format } from "./i18n/format.ts";
import type { PiStrings } from "./i18n/i18n.ts";
import { PickerElement } from "./picker-element.ts";

const NONE: readonly never[] = [];

/** A text field a menu can follow. */
export type MenuInput = HTMLInputElement | HTMLTextAreaElement;

/** What a menu's live region and list say, in the element's language. */
export interface MenuWords {
  /** The listbox's accessible name. */
  readonly label: string;
  /** The announcement of `count` matches. */
  readonly count: (count: number) => string;
  /** Shown when nothing matches. */
  readonly empty: string;
}

/**
 * The mechanics of a popup menu that follows the typing in a text field (the slash-command menu,
 * the `@` file menu): open while the text before the caret is the menu's token, ↑ ↓ move
 * (wrapping), Enter or Tab choose, Escape hides it until the token is gone. Focus stays in the
 * text field, so the menu announces the count and the highlighted option through its own live
 * region (an `aria-activedescendant` cannot point into another shadow root).
 *
 * Two ways to use one: set `input` to a text field and it follows the typing and takes its keys
 * by itself; or set `query` (`undefined` to close) and forward keydowns to `handleKey`. A subclass
 * says what matches, how an option looks and what choosing it does.
 * @internal
 */
export abstract class TextFieldMenu<Item> extends PickerElement {
  static override properties = {
    ...PickerElement.properties,
    query: { type: String },
    input: { attribute: false },
    active: { state: true },
  };

  /** The token's text after its trigger character; `undefined` closes the menu. */
  declare query: string | undefined;
  /** A text field to follow (optional; see the class description). */
  declare input: MenuInput | undefined;
  /** The highlighted option. */
  declare active: number;

  readonly #internals = this.attachInternals();
  #attached: MenuInput | undefined;
  /** Escape hid the menu; it stays hidden until the query is cleared (the token is gone). */
  #dismissed = false;
  #shown: readonly Item[] = [];
  #announcement = "";
  #announcedLang = "";

  constructor() {
    super();
    this.active = 0;
  }

  /** True while the menu shows. */
  get open(): boolean {
    return this.query !== undefined && !this.#dismissed;
  }

  /** The options shown, best first. */
  get results(): readonly Item[] {
    return this.#shown;
  }

  /** Chooses an option and closes. */
  abstract select(item: Item): void;

  /** The options matching `query`, best first; `undefined` while they load. */
  protected abstract itemsFor(query: string): readonly Item[] | undefined;
  /** The query of the text before the caret, or `undefined` when the caret is not in a token. */
  protected abstract queryBefore(head: string): string | undefined;
  /** One option's content. */
  protected abstract renderItem(item: Item): unknown;
  /** One option as the live region reads it. */
  protected abstract describe(item: Item): string;
  /** The menu's words in `strings`' language. */
  protected abstract words(strings: PiStrings): MenuWords;

  /** Whether Enter on `item` is the text field's (it sends what is typed) rather than a choice. */
  protected enterSends(_item: Item): boolean {
    return false;
  }

  /**
   * Handles a keydown from the text field while the menu is open; returns true (and prevents the
   * default) when the menu used the key, so the host must not act on it (for example send on Enter).
   */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.open || event.isComposing || event.keyCode === 229) return false;
    if (event.altKey || event.ctrlKey || event.metaKey) return false;
    const count = this.#shown.length;
    if (event.key === "Escape") {
      // Hidden, not closed: the host may keep sending the same query while the token is there.
      this.#dismissed = true;
      this.requestUpdate();
    } else if ((event.key === "Enter" && !event.shiftKey) || event.key === "Tab") {
      const item = this.#shown[this.active];
      if (item === undefined) return false;
      if (event.key === "Enter" && this.enterSends(item)) {
        this.close();
        return false;
      }
      this.select(item);
    } else if ((event.key === "ArrowDown" || event.key === "ArrowUp") && count > 0) {
      this.active = this.navigate(event, this.active, count, { wrap: true }) ?? 0;
      this.#announceActive();
      this.reveal(`opt-${this.active}`);
    } else return false;
    event.preventDefault();
    return true;
  }

  /** Reads the followed field again: for a menu attached after the typing started. */
  sync(): void {
    this.#onInput();
  }

  /** Closes the menu. */
  close(): void {
    this.query = undefined;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#attach(undefined);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#attach(this.input);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("input")) this.#attach(this.input);
    if (changed.has("query") && this.query === undefined) this.#dismissed = false;
    const before = this.#shown;
    const found = this.open ? this.itemsFor(this.query ?? "") : [];
    this.#shown = found ?? NONE;
    // A new language re-words what the live region says about the same matches.
    const relabel = this.locale.lang !== this.#announcedLang;
    this.#announcedLang = this.locale.lang;
    if (changed.has("query") || before !== this.#shown || relabel) {
      if (changed.has("query") || this.active >= this.#shown.length) this.active = 0;
      const words = this.words(this.locale.strings);
      if (this.open && found !== undefined) {
        const first = this.#shown[0];
        this.#announcement = first
          ? `${words.count(this.#shown.length)}. ${this.#describeAt(0)}`
          : words.empty;
      } else if (!this.open) this.#announcement = "";
    }
    this.toggleAttribute("open", this.open);
    if (this.open) this.#internals.states.add("open");
    else this.#internals.states.delete("open");
  }

  protected override render(): unknown {
    const live = html`<div class="sr-only" role="status">${this.#announcement}</div>`;
    if (!this.open) return live;
    const words = this.words(this.locale.strings);
    const found = this.itemsFor(this.query ?? "");
    if (found === undefined)
      return html`${live}<p part="empty" class="popup empty">${this.locale.strings.loading}</p>`;
    if (this.#shown.length === 0)
      return html`${live}<p part="empty" class="popup empty">${words.empty}</p>`;
    return html`${live}<div part="listbox" class="popup listbox" role="listbox" aria-label=${words.label}>
      ${this.#shown.map(
        (item, index): TemplateResult => html`<div
          part="option"
          class="option"
          id="opt-${index}"
          role="option"
          aria-selected=${index === this.active ? "true" : "false"}
          @pointerdown=${(e: PointerEvent) => e.preventDefault()}
          @click=${() => this.select(item)}
        >${this.renderItem(item)}</div>`,
      )}
    </div>`;
  }

  /**
   * Puts `text` in place of the token before the caret of the followed field (and what touches it
   * after the caret), fires `input`, and puts the caret after it.
   */
  protected replaceToken(input: MenuInput, start: number, text: string): void {
    const caret = input.selectionStart ?? input.value.length;
    const rest = input.value.slice(caret).replace(/^\S*\s?/, "");
    input.value = input.value.slice(0, start) + text + rest;
    const end = start + text.length;
    input.setSelectionRange(end, end);
    input.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    input.focus();
  }

  #describeAt(index: number): string {
    const item = this.#shown[index] as Item;
    const counter = format(this.locale.strings.dialogCounter, {
      index: index + 1,
      total: this.#shown.length,
    });
    return `${this.describe(item)}, ${counter}`;
  }

  #announceActive(): void {
    if (this.#shown[this.active] !== undefined) this.#announcement = this.#describeAt(this.active);
  }

  // Follows an attached field: open while the caret is inside the menu's token.
  readonly #onInput = (): void => {
    const input = this.#attached;
    if (input === undefined) return;
    const caret = input.selectionStart ?? input.value.length;
    this.query = this.queryBefore(input.value.slice(0, caret));
  };

  // Capture phase on the field itself runs before the host's own keydown listener, and
  // stopImmediatePropagation keeps the host from also acting on a key the menu used.
  readonly #onKeyDown = (event: KeyboardEvent): void => {
    if (this.handleKey(event)) event.stopImmediatePropagation();
  };

  readonly #onBlur = (): void => this.close();

  #attach(input: MenuInput | undefined): void {
    const target = this.isConnected ? input : undefined;
    if (target === this.#attached) return;
    const old: HTMLElement | undefined = this.#attached;
    old?.removeEventListener("input", this.#onInput);
    old?.removeEventListener("keydown", this.#onKeyDown, true);
    old?.removeEventListener("blur", this.#onBlur);
    this.#attached = target;
    const next: HTMLElement | undefined = target;
    next?.addEventListener("input", this.#onInput);
    next?.addEventListener("keydown", this.#onKeyDown, true);
    next?.addEventListener("blur", this.#onBlur);
  }
}
