/**
 * `<pi-mention-menu>`, the `@` file menu of a composer. It loads when `@` is first typed, and it
 * imports nothing the chat page's entry has: the composer hands it what they share (Lit's
 * templates, `format`, and its slash menu, whose base class and styles the menu reuses) through
 * {@link MentionMenuKit}, so loading it lazily leaves the entry's chunks as they are (a shared
 * import would split them, and the entry would grow).
 * @module
 */
import type { FileSearch, WorkspaceEntry } from "@pi-kit/client";
import type { CSSResultGroup, html, nothing, PropertyValues } from "lit";
import { PiMentionSelectEvent } from "../../events/pi-mention-select.ts";
import type { format } from "../../internal/i18n/format.ts";
import type { MenuWords, TextFieldMenu } from "../../internal/text-field-menu.ts";
import { mentionStringsFor, type PiMentionStrings } from "./mention-strings.ts";
import { mentionBefore, mentionedPaths, mentionText } from "./mention-text.ts";
import { mentionMenuCss } from "./pi-mention-menu.styles.ts";

/** How many matches the menu asks for and shows. */
const PAGE = 50;

/** What the composer hands the menu: what it shares with the rest of the page. */
export interface MentionMenuKit {
  readonly html: typeof html;
  readonly nothing: typeof nothing;
  readonly format: typeof format;
  /** The slash menu's class: the mention menu has its base class and its styles. */
  readonly slashMenu: {
    readonly styles?: CSSResultGroup;
  } & (abstract new () => TextFieldMenu<never>);
}

/**
 * The `@` file menu of a composer: while the caret is in an `@` token, it lists the workspace's
 * files and directories matching what follows the `@` (fuzzy, from `source`); choosing one puts
 * `@path` in the text, as pi's own TUI does, and shows the mentioned files as chips. Same keys and
 * live region as the slash menu: ↑ ↓ move, Enter or Tab chooses (a directory keeps the menu open
 * on its contents), Escape closes.
 *
 * @tagname pi-mention-menu
 * @event pi-mention-select - A file or directory was chosen; cancel to insert it yourself.
 * @csspart listbox - The popup list.
 * @csspart option - One file or directory.
 * @csspart empty - "No matching files", or why the search failed.
 * @csspart mentions - The chips of the files the text mentions.
 * @csspart mention - One chip.
 * @cssstate open - The menu shows.
 */
export interface PiMentionMenu extends TextFieldMenu<WorkspaceEntry> {
  /** Where the workspace's files are searched (a `BridgeFileSearch`, or any `FileSearch`). */
  source: FileSearch | undefined;
  /** Whose `fileSearch` to use when `source` is unset (the composer that made the menu). */
  host: MentionHost | undefined;
  /** The paths the text mentions that were chosen here, shown as chips. */
  readonly mentioned: readonly string[];
}

/** What the menu searches through: a composer's `fileSearch`, read at each search. */
export interface MentionHost {
  readonly fileSearch: FileSearch | undefined;
}

/** Puts a `<pi-mention-menu>` before `input`, following it, and opens it on the `@` typed. */
export async function mountMentionMenu(
  host: MentionHost,
  input: HTMLTextAreaElement,
  kit: MentionMenuKit,
): Promise<void> {
  definePiMentionMenu(kit);
  const menu = document.createElement("pi-mention-menu");
  menu.setAttribute("exportparts", "listbox:mention-menu,mentions,mention");
  menu.host = host;
  input.before(menu);
  menu.input = input;
  await menu.updateComplete;
  menu.sync();
}

/** Registers `<pi-mention-menu>` (once) on the entry's `kit`. */
export function definePiMentionMenu(kit: MentionMenuKit): void {
  if (customElements.get("pi-mention-menu") !== undefined) return;
  const { html, nothing, format } = kit;
  const Base = Object.getPrototypeOf(kit.slashMenu) as typeof TextFieldMenu;
  const own = new CSSStyleSheet();
  own.replaceSync(mentionMenuCss);

  class MentionMenu extends Base<WorkspaceEntry> implements PiMentionMenu {
    static override styles = [kit.slashMenu.styles ?? [], own];
    static override properties = {
      ...Base.properties,
      source: { attribute: false },
      mentioned: { state: true },
    };

    declare source: FileSearch | undefined;
    declare mentioned: readonly string[];
    host: MentionHost | undefined;
    /** The source the last answer came from: a new one starts afresh. */
    #from: FileSearch | undefined;

    /** The last answer: the query it is for, its entries, or why it failed. */
    #found: { query: string; entries: readonly WorkspaceEntry[]; error?: string } | undefined;
    #searching: string | undefined;
    #abort: AbortController | undefined;
    /** Where the `@` token before the caret starts. */
    #start = 0;
    /** What was chosen here: only these show as chips (an `@` typed by hand may name nothing). */
    readonly #chosen = new Set<string>();

    constructor() {
      super();
      this.mentioned = [];
    }

    select(entry: WorkspaceEntry): void {
      const input = this.input;
      const text = mentionText(entry);
      const insert = this.dispatchEvent(new PiMentionSelectEvent(entry, text));
      this.close();
      if (!insert || input === undefined) return;
      this.#chosen.add(entry.path);
      // A file ends the token; a directory leaves it open, so its contents show next.
      this.replaceToken(input, this.#start, entry.kind === "directory" ? text : `${text} `);
    }

    override disconnectedCallback(): void {
      super.disconnectedCallback();
      this.#abort?.abort();
      this.input?.removeEventListener("input", this.#onText);
    }

    protected override willUpdate(changed: PropertyValues<this>): void {
      if (changed.has("input")) {
        (changed.get("input") as HTMLElement | undefined)?.removeEventListener(
          "input",
          this.#onText,
        );
        this.input?.addEventListener("input", this.#onText);
        this.#onText();
      }
      super.willUpdate(changed);
    }

    protected override render(): unknown {
      const s = this.#strings();
      const chips = this.mentioned.length
        ? html`<ul part="mentions" class="mentions" aria-label=${s.mentionsLabel}>
            ${this.mentioned.map(
              (path) => html`<li part="mention" class="chip" title=${path}>
                <span>@${path}</span>
                <button type="button" aria-label=${format(s.mentionRemove, { path })} @click=${() => this.#unmention(path)}>×</button>
              </li>`,
            )}
          </ul>`
        : nothing;
      return html`${chips}${super.render()}`;
    }

    protected itemsFor(query: string): readonly WorkspaceEntry[] | undefined {
      const source = this.source ?? this.host?.fileSearch;
      if (source === undefined) return [];
      if (source !== this.#from) {
        this.#from = source;
        this.#found = undefined;
        this.#searching = undefined;
      }
      if (this.#found?.query !== query && this.#searching !== query) void this.#search(query);
      // The previous answer stays up while the next loads: no flash of "Loading" per key.
      return this.#found?.entries;
    }

    protected queryBefore(head: string): string | undefined {
      const token = mentionBefore(head);
      if (token !== undefined) this.#start = token.start;
      return token?.query;
    }

    protected renderItem(entry: WorkspaceEntry): unknown {
      const slash = entry.path.lastIndexOf("/");
      const directory = entry.kind === "directory";
      return html`<span class="kind" aria-hidden="true">${directory ? "▸" : "·"}</span>
        <span part="name" class="name">${entry.path.slice(slash + 1)}${directory ? "/" : ""}</span>
        ${slash > 0 ? html`<span class="where">${entry.path.slice(0, slash)}</span>` : nothing}`;
    }

    protected describe(entry: WorkspaceEntry): string {
      return entry.kind === "directory"
        ? `${entry.path}/, ${this.#strings().mentionDirectory}`
        : entry.path;
    }

    protected words(): MenuWords {
      const s = this.#strings();
      const error = this.#found?.error;
      return {
        label: s.mentionLabel,
        count: (count) => format(s.mentionCount, { count }),
        empty: error === undefined ? s.mentionEmpty : format(s.mentionFailed, { message: error }),
      };
    }

    #strings(): PiMentionStrings {
      return {
        ...mentionStringsFor(this.locale.lang),
        ...(this.strings as Partial<PiMentionStrings>),
      };
    }

    async #search(query: string): Promise<void> {
      const source = this.#from;
      if (source === undefined) return;
      this.#abort?.abort();
      const abort = new AbortController();
      this.#abort = abort;
      this.#searching = query;
      try {
        const page = await source.search({ query, limit: PAGE, signal: abort.signal });
        if (abort.signal.aborted) return;
        this.#found = { query, entries: page.entries };
      } catch (error) {
        if (abort.signal.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        this.#found = { query, entries: [], error: message };
      } finally {
        if (this.#searching === query) this.#searching = undefined;
      }
      this.requestUpdate();
    }

    #unmention(path: string): void {
      const input = this.input;
      if (input === undefined) return;
      const quoted = /\s/u.test(path) ? `"${path}"` : path;
      const pattern = new RegExp(`(^|\\s)@${escapeRegExp(quoted)}/?(?=\\s|$) ?`, "u");
      input.value = input.value.replace(pattern, "$1");
      this.#chosen.delete(path);
      input.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
      input.focus();
    }

    // The chips follow the text: a mention deleted by hand loses its chip.
    readonly #onText = (): void => {
      const paths = mentionedPaths(this.input?.value ?? "").filter((p) => this.#chosen.has(p));
      const unique = [...new Set(paths)];
      if (unique.join("\n") !== this.mentioned.join("\n")) this.mentioned = unique;
    };
  }

  customElements.define("pi-mention-menu", MentionMenu);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-mention-menu": PiMentionMenu;
  }
}
