import type { PiClient, SessionHistory, SessionSummary } from "@pi-kit/client";
import { html, nothing, type PropertyValues } from "lit";
import { live } from "lit/directives/live.js";
import { repeat } from "lit/directives/repeat.js";
import { PiErrorEvent } from "../../events/pi-error.ts";
import { PiSessionCreateEvent } from "../../events/pi-session-create.ts";
import { PiSessionDeleteEvent } from "../../events/pi-session-delete.ts";
import { PiSessionDeletedEvent } from "../../events/pi-session-deleted.ts";
import { PiSessionRenameEvent } from "../../events/pi-session-rename.ts";
import { PiSessionSelectEvent } from "../../events/pi-session-select.ts";
import { focusConfirmBar } from "../../internal/confirm-bar.ts";
import {
  ConnectionController,
  refreshOnChanges,
} from "../../internal/controllers/connection-controller.ts";
import { forkBadgeStyles } from "../../internal/fork-title.ts";
import { type PiSessionStrings, sessionStringsFor } from "../../internal/i18n/session-strings.ts";
import * as icons from "../../internal/icons.ts";
import { PickerElement } from "../../internal/picker-element.ts";
import { confirmStyles } from "../../styles/confirm.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import { sessionListStyles } from "./pi-session-list.styles.ts";
import { SessionListLoader } from "./session-list-loader.ts";
import { SessionListUpkeep } from "./session-list-upkeep.ts";
import { failureText, isEmptySession, listFooter, searchResult } from "./session-pages.ts";
import { sessionRow } from "./session-row.ts";

/** How often relative times ("5 min ago") are brought up to date. */
const CLOCK_MS = 30_000;

/**
 * The history of conversations, as a sidebar: newest activity first, with relative times, a
 * running badge, rename in place, delete after a confirmation, a search box, and paging as the
 * list scrolls (a history of thousands loads a page at a time). It reads and changes any
 * `SessionHistory`, such as `BridgeSessionHistory` from `@pi-kit/client`, and says with events
 * which conversation to open; the page opens it. Entries whose files are damaged are listed
 * with the reason; a forked one lists its other versions (pi's other files of it) under its row.
 * Given a `client` (or inside a `<pi-provider>`), it refreshes when pi takes a message of the
 * user's, after each run and after each session change, so a new conversation shows as soon as it
 * is sent and titles and times stay current.
 *
 * Keyboard: ↑ ↓ Home End PageUp PageDown and typing move between conversations; Enter opens; F2
 * renames (Enter saves, Escape cancels); Delete asks to delete; Tab reaches the row's buttons.
 *
 * @tagname pi-session-list
 * @summary History of conversations.
 * @event pi-session-select - A conversation was chosen; cancelable (the selection stays). {@link PiSessionSelectEvent}
 * @event pi-session-create - Before "New chat" creates a conversation; cancel to create it yourself. {@link PiSessionCreateEvent}
 * @event pi-session-rename - Before a conversation is renamed; cancel to rename it yourself. {@link PiSessionRenameEvent}
 * @event pi-session-delete - After the user confirmed a deletion, before it happens; cancelable. {@link PiSessionDeleteEvent}
 * @event pi-session-deleted - A conversation was deleted. {@link PiSessionDeletedEvent}
 * @event pi-error - A history call failed (`action` is `load-sessions`, `create-session`, `rename-session` or `delete-session`).
 * @csspart header - The row with the new-chat button and the search box.
 * @csspart new-button - "New chat".
 * @csspart filter - The search box.
 * @csspart list - The list of conversations.
 * @csspart item - One conversation.
 * @csspart open-button - The button that opens a conversation (its title, time and badges).
 * @csspart title - A conversation's title.
 * @csspart time - When it was last active.
 * @csspart badge - The "running" badge.
 * @csspart damaged - Why a damaged conversation could not be read in full.
 * @csspart forks - The list of a conversation's other versions (its other session files).
 * @csspart fork-button - Opens one of those versions.
 * @csspart fork-title - A version's title.
 * @csspart fork-badge - The "fork" badge after a fork's title (also after a conversation's, when pi continues a fork).
 * @csspart actions - The rename and delete buttons of a row.
 * @csspart rename-button - Starts renaming.
 * @csspart delete-button - Asks to delete.
 * @csspart rename-input - The title field while renaming.
 * @csspart confirm - The delete confirmation.
 * @csspart confirm-button - Deletes.
 * @csspart cancel-button - Keeps the conversation.
 * @csspart more-button - Loads the next page.
 * @csspart status - Loading, empty and error messages.
 * @cssproperty [--pi-color-accent=#2f4cc9] - The selected conversation's marker, the new-chat button.
 * @cssproperty [--pi-color-success=#17704a] - The running badge.
 * @cssproperty [--pi-color-warning=#7a5200] - Damaged entries.
 * @cssstate loading - A page is loading.
 */
export class PiSessionList extends PickerElement<PiSessionStrings> {
  static override styles = [
    tokenStyles,
    baseStyles,
    confirmStyles,
    forkBadgeStyles,
    sessionListStyles,
  ];
  static override properties = {
    history: { attribute: false },
    selected: { type: String, reflect: true },
    pageSize: { type: Number, attribute: "page-size" },
    sessions: { state: true },
    loading: { state: true },
    error: { state: true },
    editing: { state: true },
    confirming: { state: true },
    filter: { state: true },
    failure: { state: true },
  };

  /** Where the conversations are kept. */
  declare history: SessionHistory | undefined;
  /** The client of the open conversation (optional): the list refreshes after its runs and session changes. */
  declare client: PiClient | undefined;
  /** The name of the open conversation (marked `aria-current`). */
  declare selected: string | undefined;
  /** Conversations per page. */
  declare pageSize: number;
  /** The conversations loaded so far, newest activity first. */
  declare sessions: readonly SessionSummary[];
  declare loading: boolean;
  declare error: string | undefined;
  declare editing: string | undefined;
  declare confirming: string | undefined;
  declare filter: string;
  declare failure: string | undefined;

  readonly #loader = new SessionListLoader(this, {
    query: () => this.filter.trim(),
    loaded: (mode, query) => {
      if (mode !== "refresh")
        this.#announcement = searchResult(this.locale.strings, query, this.sessions.length);
    },
    failed: (error) => this.dispatchEvent(new PiErrorEvent("load-sessions", error)),
  });
  readonly #connection = new ConnectionController(this, {
    changed: refreshOnChanges(
      () => {
        if (this.#loader.loadedOnce) void this.refresh();
      },
      { userMessages: true },
    ),
  });
  readonly #internals = this.attachInternals();
  #activeName: string | undefined;
  #focusPending: string | undefined;
  #now = Date.now();
  #clock: ReturnType<typeof setInterval> | undefined;
  readonly #upkeep = new SessionListUpkeep(this, () => void this.#loader.load("reset"));
  #announcement = "";

  /** @internal */
  protected override ownStrings(lang: string): PiSessionStrings {
    return sessionStringsFor(lang);
  }

  constructor() {
    super();
    this.pageSize = 50;
    this.sessions = [];
    this.loading = false;
    this.filter = "";
  }

  /** True when more conversations can be loaded. */
  get hasMore(): boolean {
    return this.#loader.hasMore;
  }

  /** Reloads the first page, keeping later pages that were loaded (see the class description). */
  async refresh(): Promise<void> {
    await this.#loader.load("refresh");
  }

  /** Loads the next page, when there is one. */
  async loadMore(): Promise<void> {
    if (!this.#loader.hasMore || this.loading) return;
    await this.#loader.load("more");
  }

  /** Creates a conversation, as "New chat" does (fires `pi-session-create`, then `pi-session-select`). */
  async create(): Promise<void> {
    if (!this.dispatchEvent(new PiSessionCreateEvent())) return;
    await this.#change("create", undefined, async (history) => {
      const session = await history.create();
      if (!isEmptySession(session))
        this.sessions = [session, ...this.sessions.filter((s) => s.name !== session.name)];
      this.#choose(session, true);
    });
  }

  /** Renames a conversation (fires `pi-session-rename` first). */
  async rename(name: string, title: string): Promise<void> {
    const session = this.#find(name);
    const trimmed = title.trim();
    if (session === undefined || trimmed === "" || trimmed === session.title) return;
    if (!this.dispatchEvent(new PiSessionRenameEvent(session, trimmed))) return;
    await this.#change("rename", session, async (history) =>
      this.#replace(await history.rename(name, trimmed)),
    );
  }

  /** Deletes a conversation without asking (fires `pi-session-delete` first, `pi-session-deleted` after). */
  async delete(name: string): Promise<void> {
    const session = this.#find(name);
    if (session === undefined || !this.dispatchEvent(new PiSessionDeleteEvent(session))) return;
    if (!(await this.#change("delete", session, (history) => history.delete(name)))) return;
    const index = this.sessions.findIndex((s) => s.name === name);
    this.sessions = this.sessions.filter((s) => s.name !== name);
    const neighbour = this.sessions[Math.min(index, this.sessions.length - 1)];
    if (this.#activeName === name) this.#activeName = neighbour?.name;
    if (this.#focusWithin()) this.#focusPending = neighbour?.name ?? "";
    const wasSelected = this.selected === name;
    if (wasSelected) this.selected = undefined;
    this.dispatchEvent(new PiSessionDeletedEvent(session, wasSelected));
  }

  override focus(options?: FocusOptions): void {
    const row = this.#rowButton(this.#rovingName());
    (row ?? this.renderRoot.querySelector<HTMLElement>("[part=new-button]"))?.focus(options);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#now = Date.now();
    this.#clock = setInterval(() => {
      this.#now = Date.now();
      this.requestUpdate();
    }, CLOCK_MS);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.#clock);
    this.#loader.abort();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    this.#connection.resolve();
    if (changed.has("history") || changed.has("pageSize")) {
      this.sessions = [];
      this.#loader.forget();
      if (this.history !== undefined) void this.#loader.load("reset");
    }
    if (this.loading) this.#internals.states.add("loading");
    else this.#internals.states.delete("loading");
  }

  protected override render(): unknown {
    const s = this.locale.strings;
    const roving = this.#rovingName();
    return html`<div part="header" class="header">
        <button part="new-button" class="primary new" @click=${() => void this.create()}>
          ${icons.plus()}<span>${s.sessionsNew}</span>
        </button>
        <input
          part="filter"
          class="filter"
          type="search"
          aria-label=${s.sessionsFilter}
          placeholder=${s.sessionsFilter}
          .value=${live(this.filter)}
          @input=${this.#onFilterInput}
        />
      </div>
      ${this.failure === undefined ? nothing : html`<p part="status" class="status error failure" role="alert">${this.failure}</p>`}
      <div class="scroller">
        <ul
          part="list"
          class="list"
          role="list"
          aria-label=${s.sessionsLabel}
          aria-busy=${this.loading ? "true" : "false"}
          @keydown=${this.#onKeyDown}
        >
          ${repeat(
            this.sessions,
            (session) => session.name,
            (session) => this.#row(session, session.name === roving),
          )}
        </ul>
        ${this.#footer()}
      </div>
      <span id="hint" class="sr-only">${s.sessionsHint}</span>
      <div class="sr-only" role="status">${this.#announcement}</div>`;
  }

  protected override updated(): void {
    const name = this.#focusPending;
    if (name === undefined) return;
    this.#focusPending = undefined;
    if (this.editing === name) {
      const input = this.renderRoot.querySelector<HTMLInputElement>("[part=rename-input]");
      input?.focus();
      input?.select();
    } else if (this.confirming === name) focusConfirmBar(this.renderRoot);
    else if (name === "") this.focus();
    else this.#rowButton(name)?.focus();
  }

  #row(session: SessionSummary, roving: boolean): unknown {
    const name = session.name;
    return sessionRow(session, {
      mode: this.editing === name ? "rename" : this.confirming === name ? "confirm" : "view",
      roving,
      selected: name === this.selected,
      now: this.#now,
      lang: this.locale.lang,
      strings: this.locale.strings,
      open: (fork) => this.#choose(session, false, fork),
      focused: () => this.#setActive(name),
      startRename: () => this.#start("editing", name),
      finishRename: (title) => this.#finishRename(session, title),
      startDelete: () => this.#start("confirming", name),
      confirmDelete: () => this.#confirmDelete(name),
      cancelDelete: () => this.#cancelConfirm(name),
    });
  }

  #footer(): unknown {
    return listFooter({
      strings: this.locale.strings,
      error: this.error,
      more: this.#loader.hasMore,
      loading: this.loading,
      count: this.sessions.length,
      loaded: this.#loader.loadedOnce,
      filter: this.filter.trim(),
      open: Boolean(this.selected),
      retry: () => void this.#loader.load(this.#loader.loadedOnce ? "more" : "reset"),
      loadMore: () => void this.loadMore(),
    });
  }

  #onFilterInput(event: InputEvent): void {
    this.filter = (event.target as HTMLInputElement).value;
    this.#upkeep.filtered();
  }

  #onKeyDown(event: KeyboardEvent): void {
    const target = event.target as HTMLElement;
    if (target.matches("input") || target.closest("[part=confirm]")) return;
    const name = target.closest<HTMLElement>("[part~=item]")?.dataset.name;
    if (name === undefined) return;
    if (event.key === "F2" || event.key === "Delete") {
      event.preventDefault();
      this.#start(event.key === "F2" ? "editing" : "confirming", name);
      return;
    }
    const index = this.sessions.findIndex((s) => s.name === name);
    const labels = target.matches("[part=open-button]")
      ? this.sessions.map((s) => s.title)
      : undefined;
    const next = this.navigate(event, index, this.sessions.length, { labels });
    if (next === undefined) return;
    const session = this.sessions[next];
    if (session === undefined) return;
    this.#setActive(session.name);
    this.#focusPending = session.name;
    this.requestUpdate();
    // Moving past the last loaded row brings the next page.
    if (next === this.sessions.length - 1 && next === index) void this.loadMore();
  }

  // A row becomes its rename field or its delete confirmation (one row, one of them, at a time).
  #start(mode: "editing" | "confirming", name: string): void {
    this.editing = mode === "editing" ? name : undefined;
    this.confirming = mode === "confirming" ? name : undefined;
    this.#focusPending = name;
  }

  // Enter and blur both end the edit; whichever comes first wins, the other finds nothing to do.
  #finishRename(session: SessionSummary, title: string | undefined): void {
    if (this.editing !== session.name) return;
    this.editing = undefined;
    if (this.#focusWithin()) this.#focusPending = session.name;
    if (title !== undefined) void this.rename(session.name, title);
  }

  #confirmDelete(name: string): void {
    // The row stays focused while the history deletes; then its neighbour takes over.
    this.#cancelConfirm(name);
    void this.delete(name);
  }

  #cancelConfirm(name: string): void {
    this.confirming = undefined;
    this.#focusPending = name;
  }

  #choose(session: SessionSummary, created = false, fork?: PiSessionSelectEvent["fork"]): void {
    this.#setActive(session.name);
    if (!this.dispatchEvent(new PiSessionSelectEvent(session, created, fork))) return;
    this.selected = session.name;
  }

  #setActive(name: string): void {
    if (this.#activeName === name) return;
    this.#activeName = name;
    this.requestUpdate();
  }

  // The row in the tab order: the one last focused, else the open conversation, else the first.
  #rovingName(): string | undefined {
    const names = new Set(this.sessions.map((s) => s.name));
    if (this.#activeName !== undefined && names.has(this.#activeName)) return this.#activeName;
    if (this.selected !== undefined && names.has(this.selected)) return this.selected;
    return this.sessions[0]?.name;
  }

  #rowButton(name: string | undefined): HTMLElement | null {
    if (name === undefined) return null;
    for (const item of this.renderRoot.querySelectorAll<HTMLElement>("[part~=item]"))
      if (item.dataset.name === name) return item.querySelector("[part=open-button]");
    return null;
  }

  #find(name: string): SessionSummary | undefined {
    return this.sessions.find((s) => s.name === name);
  }

  #replace(session: SessionSummary): void {
    this.sessions = this.sessions.map((s) => (s.name === session.name ? session : s));
  }

  #focusWithin(): boolean {
    return this.shadowRoot?.activeElement != null || this.matches(":focus-within");
  }

  // One change of the history: false when there is none or it failed (shown, and fired as pi-error).
  async #change(
    action: "create" | "rename" | "delete",
    session: SessionSummary | undefined,
    task: (history: SessionHistory) => Promise<void>,
  ): Promise<boolean> {
    const history = this.history;
    if (history === undefined) return false;
    this.failure = undefined;
    try {
      await task(history);
      return true;
    } catch (error) {
      const title = session ? session.title || this.locale.strings.sessionsUntitled : "";
      this.failure = failureText(this.locale.strings, action, error, title);
      this.dispatchEvent(new PiErrorEvent(`${action}-session`, error));
      return false;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-session-list": PiSessionList;
  }
}
