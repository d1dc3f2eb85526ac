import type { SlashCommand } from "@pi-kit/protocol";
import { html, nothing, type PropertyValues } from "lit";
import { ConnectionController } from "../../internal/controllers/connection-controller.ts";
import { CANCELABLE_EVENT, PiErrorEvent } from "../../internal/events.ts";
import { format, type PiStrings } from "../../internal/i18n/i18n.ts";
import { PickerElement } from "../../internal/picker-element.ts";
import { listStyles } from "../../styles/list.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import { matchCommands } from "./match-commands.ts";
import { slashMenuStyles } from "./pi-slash-menu.styles.ts";

/**
 * Fired by `<pi-slash-menu>` when a command is chosen. Unless cancelled, an attached `input` gets
 * `/name ` in place of what was typed (and an `input` event); a host that forwards keys instead
 * replaces the text itself.
 */
export class PiSlashSelectEvent extends Event {
  /** The chosen command. */
  readonly command: SlashCommand;

  constructor(command: SlashCommand) {
    super("pi-slash-select", CANCELABLE_EVENT);
    this.command = command;
  }
}

/** A text field the menu can follow. */
export type SlashInput = HTMLInputElement | HTMLTextAreaElement;

const SOURCE_KEYS = {
  extension: "slashSourceExtension",
  prompt: "slashSourcePrompt",
  skill: "slashSourceSkill",
  builtin: "slashSourceBuiltin",
} as const satisfies Record<SlashCommand["source"], keyof PiStrings>;

/**
 * The slash-command menu of a composer: while the text starts with `/`, it lists the matching
 * commands from `get_commands`. Focus stays in the text field, so the menu announces the count and
 * the highlighted command through its own live region (an `aria-activedescendant` cannot point
 * into another shadow root).
 *
 * Two ways to use it: set `input` to a text field and it follows the typing and takes its keys by
 * itself; or set `query` (the text after `/`, `undefined` to close) and forward keydowns to
 * {@link PiSlashMenu.handleKey}.
 *
 * Keyboard (while open): ↑ ↓ move (wrapping); Enter or Tab chooses (Enter on a command typed out
 * in full leaves the key to the text field, which sends it); Escape closes.
 *
 * @tagname pi-slash-menu
 * @summary Slash-command menu.
 * @event pi-slash-select - A command was chosen; cancel to insert it yourself. {@link PiSlashSelectEvent}
 * @event pi-error - Loading the commands failed (`action` is `load-commands`).
 * @csspart listbox - The popup list.
 * @csspart option - One command.
 * @csspart name - The `/name`.
 * @csspart description - Its description.
 * @csspart source - Where it comes from (extension, prompt, skill, built-in).
 * @csspart empty - "No matching commands".
 * @cssproperty [--max-height=16rem] - Height before the list scrolls.
 * @cssstate open - The menu shows.
 */
export class PiSlashMenu extends PickerElement {
  static override styles = [tokenStyles, baseStyles, listStyles, slashMenuStyles];
  static override properties = {
    commands: { attribute: false },
    query: { type: String },
    input: { attribute: false },
    active: { state: true },
    loaded: { state: true },
  };

  /** The commands to offer; loaded from the client on first open when unset. */
  declare commands: readonly SlashCommand[] | undefined;
  /** The text typed after `/`; `undefined` closes the menu. */
  declare query: string | undefined;
  /** A text field to follow (optional; see the class description). */
  declare input: SlashInput | undefined;
  /** The highlighted command. */
  declare active: number;
  declare loaded: readonly SlashCommand[] | undefined;

  readonly #internals = this.attachInternals();
  readonly #connection = new ConnectionController(this);
  #loading = false;
  #attached: SlashInput | undefined;
  /** Escape hid the menu; it stays hidden until the query is cleared (the `/word` is gone). */
  #dismissed = false;
  #matches: readonly SlashCommand[] = [];
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

  /** The commands matching the query, best first. */
  get results(): readonly SlashCommand[] {
    return this.#matches;
  }

  /** Reloads the commands from the client. */
  async refresh(): Promise<void> {
    const client = this.#connection.client;
    if (client === undefined || this.#loading) return;
    this.#loading = true;
    try {
      this.loaded = await client.getCommands();
    } catch (error) {
      this.dispatchEvent(new PiErrorEvent("load-commands", error));
    } finally {
      this.#loading = false;
    }
  }

  /**
   * Handles a keydown from the text field while the menu is open; returns true (and prevents the
   * default) when the menu used the key, so the host must not act on it (for example send on Enter).
   */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.open || event.isComposing || event.keyCode === 229) return false;
    if (event.altKey || event.ctrlKey || event.metaKey) return false;
    const count = this.#matches.length;
    if (event.key === "Escape") {
      // Hidden, not closed: the host may keep sending the same query while the `/word` is there.
      this.#dismissed = true;
      this.requestUpdate();
    } else if ((event.key === "Enter" && !event.shiftKey) || event.key === "Tab") {
      const command = this.#matches[this.active];
      if (command === undefined) return false;
      // Enter on a command typed out in full sends it, as typed: no second Enter.
      if (event.key === "Enter" && command.name.toLowerCase() === this.query?.toLowerCase()) {
        this.close();
        return false;
      }
      this.select(command);
    } else if ((event.key === "ArrowDown" || event.key === "ArrowUp") && count > 0) {
      this.active = this.navigate(event, this.active, count, { wrap: true }) ?? 0;
      this.#announceActive();
      this.reveal(`cmd-${this.active}`);
    } else return false;
    event.preventDefault();
    return true;
  }

  /** Chooses a command (fires `pi-slash-select`; see there) and closes. */
  select(command: SlashCommand): void {
    const input = this.input;
    const insert = this.dispatchEvent(new PiSlashSelectEvent(command));
    this.close();
    if (!insert || input === undefined) return;
    const caret = input.selectionStart ?? input.value.length;
    const rest = input.value.slice(caret).replace(/^\S*\s?/, "");
    const text = `/${command.name} `;
    input.value = text + rest;
    input.setSelectionRange(text.length, text.length);
    input.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    input.focus();
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
    this.#connection.resolve();
    if (changed.has("input")) this.#attach(this.input);
    if (changed.has("query") && this.query === undefined) this.#dismissed = false;
    const commands = this.commands ?? this.loaded;
    if (this.open && commands === undefined) void this.refresh();
    const before = this.#matches;
    this.#matches = this.open ? matchCommands(commands ?? [], this.query ?? "") : [];
    // A new language re-words what the live region says about the same matches.
    const relabel = this.locale.lang !== this.#announcedLang;
    this.#announcedLang = this.locale.lang;
    if (
      changed.has("query") ||
      before.length !== this.#matches.length ||
      changed.has("loaded") ||
      relabel
    ) {
      if (changed.has("query") || this.active >= this.#matches.length) this.active = 0;
      if (this.open && commands !== undefined) {
        const first = this.#matches[0];
        this.#announcement = first
          ? `${format(this.locale.strings.slashCount, { count: this.#matches.length })}. ${this.#describe(first, 0)}`
          : this.locale.strings.slashEmpty;
      } else if (!this.open) this.#announcement = "";
    }
    this.toggleAttribute("open", this.open);
    if (this.open) this.#internals.states.add("open");
    else this.#internals.states.delete("open");
  }

  protected override render(): unknown {
    const s = this.locale.strings;
    const live = html`<div class="sr-only" role="status">${this.#announcement}</div>`;
    if (!this.open) return live;
    const commands = this.commands ?? this.loaded;
    if (commands === undefined)
      return html`${live}<p part="empty" class="popup empty">${s.loading}</p>`;
    if (this.#matches.length === 0)
      return html`${live}<p part="empty" class="popup empty">${s.slashEmpty}</p>`;
    return html`${live}<div part="listbox" class="popup listbox" role="listbox" aria-label=${s.slashLabel}>
      ${this.#matches.map(
        (command, index) => html`<div
          part="option"
          class="option"
          id="cmd-${index}"
          role="option"
          aria-selected=${index === this.active ? "true" : "false"}
          @pointerdown=${(e: PointerEvent) => e.preventDefault()}
          @click=${() => this.select(command)}
        >
          <span part="name" class="name">/${command.name}</span>
          ${command.description ? html`<span part="description" class="description">${command.description}</span>` : nothing}
          <span part="source" class="source">${this.#source(command)}</span>
        </div>`,
      )}
    </div>`;
  }

  #source(command: SlashCommand): string {
    const key = SOURCE_KEYS[command.source];
    return key === undefined ? command.source : this.locale.strings[key];
  }

  #describe(command: SlashCommand, index: number): string {
    const counter = format(this.locale.strings.dialogCounter, {
      index: index + 1,
      total: this.#matches.length,
    });
    return [`/${command.name}`, command.description, counter].filter(Boolean).join(", ");
  }

  #announceActive(): void {
    const command = this.#matches[this.active];
    if (command !== undefined) this.#announcement = this.#describe(command, this.active);
  }

  // Follows an attached field: open while the caret is inside a leading `/word`.
  readonly #onInput = (): void => {
    const input = this.#attached;
    if (input === undefined) return;
    const caret = input.selectionStart ?? input.value.length;
    const head = input.value.slice(0, caret);
    this.query = head.startsWith("/") && !/\s/.test(head) ? head.slice(1) : undefined;
  };

  // Capture phase on the field itself runs before the host's own keydown listener, and
  // stopImmediatePropagation keeps the host from also acting on a key the menu used.
  readonly #onKeyDown = (event: KeyboardEvent): void => {
    if (this.handleKey(event)) event.stopImmediatePropagation();
  };

  readonly #onBlur = (): void => this.close();

  #attach(input: SlashInput | undefined): void {
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

declare global {
  interface HTMLElementTagNameMap {
    "pi-slash-menu": PiSlashMenu;
  }
  interface GlobalEventHandlersEventMap {
    "pi-slash-select": PiSlashSelectEvent;
  }
}
