import type { SlashCommand } from "@pi-kit/protocol";
import { html, nothing, type PropertyValues } from "lit";
import { PiErrorEvent } from "../../events/pi-error.ts";
import { PiSlashSelectEvent } from "../../events/pi-slash-select.ts";
import { ConnectionController } from "../../internal/controllers/connection-controller.ts";
import { format } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import { type MenuInput, type MenuWords, TextFieldMenu } from "../../internal/text-field-menu.ts";
import { listStyles } from "../../styles/list.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import { matchCommands } from "./match-commands.ts";
import { slashMenuStyles } from "./pi-slash-menu.styles.ts";

/** A text field the menu can follow. */
export type SlashInput = MenuInput;

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
export class PiSlashMenu extends TextFieldMenu<SlashCommand> {
  static override styles = [tokenStyles, baseStyles, listStyles, slashMenuStyles];
  static override properties = {
    ...TextFieldMenu.properties,
    commands: { attribute: false },
    loaded: { state: true },
  };

  /** The commands to offer; loaded from the client on first open when unset. */
  declare commands: readonly SlashCommand[] | undefined;
  declare loaded: readonly SlashCommand[] | undefined;

  readonly #connection = new ConnectionController(this);
  #loading = false;
  /** The last match, kept while its inputs stay the same (the base compares by identity). */
  #memo:
    | { commands: readonly SlashCommand[]; query: string; found: readonly SlashCommand[] }
    | undefined;

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

  /** Chooses a command (fires `pi-slash-select`; see there) and closes. */
  select(command: SlashCommand): void {
    const input = this.input;
    const insert = this.dispatchEvent(new PiSlashSelectEvent(command));
    this.close();
    if (insert && input !== undefined) this.replaceToken(input, 0, `/${command.name} `);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    this.#connection.resolve();
    if (this.open && (this.commands ?? this.loaded) === undefined) void this.refresh();
    super.willUpdate(changed);
  }

  protected itemsFor(query: string): readonly SlashCommand[] | undefined {
    const commands = this.commands ?? this.loaded;
    if (commands === undefined) return undefined;
    const memo = this.#memo;
    if (memo?.commands === commands && memo.query === query) return memo.found;
    this.#memo = { commands, query, found: matchCommands(commands, query) };
    return this.#memo.found;
  }

  // Open while the caret is inside a leading `/word`.
  protected queryBefore(head: string): string | undefined {
    return head.startsWith("/") && !/\s/.test(head) ? head.slice(1) : undefined;
  }

  // Enter on a command typed out in full sends it, as typed: no second Enter.
  protected override enterSends(command: SlashCommand): boolean {
    return command.name.toLowerCase() === this.query?.toLowerCase();
  }

  protected renderItem(command: SlashCommand): unknown {
    return html`<span part="name" class="name">/${command.name}</span>
      ${command.description ? html`<span part="description" class="description">${command.description}</span>` : nothing}
      <span part="source" class="source">${this.#source(command)}</span>`;
  }

  protected describe(command: SlashCommand): string {
    return [`/${command.name}`, command.description].filter(Boolean).join(", ");
  }

  protected words(s: PiStrings): MenuWords {
    return {
      label: s.slashLabel,
      count: (count) => format(s.slashCount, { count }),
      empty: s.slashEmpty,
    };
  }

  #source(command: SlashCommand): string {
    const key = SOURCE_KEYS[command.source];
    return key === undefined ? command.source : this.locale.strings[key];
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-slash-menu": PiSlashMenu;
  }
}
