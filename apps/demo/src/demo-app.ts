/**
 * The demo shell: the history of conversations (`<pi-session-list>`) in a sidebar (a drawer on
 * small screens), one `<pi-chat>` with the model and thinking pickers above it, a session panel (statistics, changes, fork picker, tree), and
 * what a visitor needs when something goes wrong: a token screen, and a banner with the remedy
 * for each connection problem. Every colour comes from the pi elements' own tokens.
 */
import type { ConnectionState, SessionSummary, TransportCloseInfo } from "@pi-kit/client";
import {
  type PiChat,
  type PiErrorEvent,
  type PiForkedEvent,
  type PiSessionDeletedEvent,
  type PiSessionDeleteEvent,
  type PiSessionList,
  type PiSessionSelectEvent,
  tokenStyles,
} from "@pi-kit/elements";
import { html, LitElement, nothing, type PropertyValues } from "lit";
import { onTokenStored, storeToken, takeToken } from "./access-token.ts";
import { ConnectFailure, connectSession, type SessionConnection } from "./connection.ts";
import {
  type ConnectionProblem,
  failedProblem,
  historyProblem,
  problemOf,
} from "./connection-problem.ts";
import { shellStyles } from "./demo-app.styles.ts";
import { type DemoConfig, loadDemoConfig } from "./demo-config.ts";
import { DemoHistory } from "./demo-history.ts";
import { type DemoStrings, demoStrings } from "./demo-strings.ts";
import { fileSearchFor } from "./file-search.ts";
import { icons } from "./icons.ts";
import { NetworkStatus } from "./network-status.ts";
import { OutageLog } from "./outage-log.ts";
import { isPairCode, PairingFlow } from "./pair-device.ts";
import {
  applyToDocument,
  loadPreferences,
  onSystemThemeChange,
  type Preferences,
  savePreferences,
  systemTheme,
  type Theme,
} from "./preferences.ts";
import { problemBanner } from "./problem-banner.ts";
import {
  onSessionNavigation,
  sessionInLocation,
  showSessionInLocation,
} from "./session-location.ts";
import { sessionPanel } from "./session-panel.ts";
import { tokenScreen } from "./token-screen.ts";
import { uploadsFor } from "./uploads.ts";
import { welcomeView } from "./welcome-view.ts";
import { ChangesTracker } from "./workspace-changes.ts";

const LAST_SESSION_KEY = "pi-kit-demo:session";
/** How long the restart notice stays on a visible page: long enough to read one line. */
const RESTART_NOTICE_MS = 8000;
// Below 720 px the chat list becomes a drawer; below 1100 px the session panel overlays the chat.
const NARROW = matchMedia("(max-width: 719.98px)");
const COMPACT = matchMedia("(max-width: 1099.98px)");

export class DemoApp extends LitElement {
  static override styles = [tokenStyles, shellStyles];
  static override properties = {
    theme: { type: String, reflect: true },
    token: { state: true },
    tokenRejected: { state: true },
    tokenError: { state: true },
    config: { state: true },
    history: { state: true },
    summary: { state: true },
    connection: { state: true },
    state: { state: true },
    problem: { state: true },
    restarted: { state: true },
    preferences: { state: true },
    narrow: { state: true },
    compact: { state: true },
    navOpen: { state: true },
    titleLooked: { state: true },
  };

  /** The scheme in force; the pi elements inside inherit it. */
  declare theme: Theme;
  declare token: string | undefined;
  declare tokenRejected: boolean;
  declare tokenError: boolean;
  declare config: DemoConfig | undefined;
  declare history: DemoHistory | undefined;
  /** The open conversation as the history lists it (its title), once known. */
  declare summary: SessionSummary | undefined;
  declare connection: SessionConnection | undefined;
  declare state: ConnectionState | undefined;
  declare problem: ConnectionProblem | undefined;
  declare restarted: boolean;
  declare preferences: Preferences;
  declare narrow: boolean;
  declare compact: boolean;
  declare navOpen: boolean;
  /** The conversation whose title the history was last asked for (and answered, maybe with none). */
  declare titleLooked: string | undefined;

  #name: string | undefined;
  #opening = 0;
  /** The console's line when the connection drops and when it is back. */
  readonly #outages = new OutageLog();
  #restartNotice: ReturnType<typeof setTimeout> | undefined;
  readonly #cleanup: Array<() => void> = [];
  /** Removes the listeners on the open connection's client. */
  #unfollow: () => void = () => {};
  readonly #changes = new ChangesTracker(this);
  /** "Continue on another device", and this page opened from another device's pairing link. */
  readonly #pairing = new PairingFlow(this);
  /** Offline, the banner says so; back online, a connection that failed meanwhile tries again. */
  readonly #network = new NetworkStatus(this, () => {
    if (this.problem?.kind === "failed") void this.#start();
    else if (this.state?.status === "reconnecting") this.connection?.transport.reconnect();
  });

  constructor() {
    super();
    this.token = takeToken();
    this.history = this.#historyFor(this.token);
    this.tokenRejected = false;
    this.tokenError = false;
    this.restarted = false;
    this.preferences = loadPreferences();
    this.theme = this.preferences.theme ?? systemTheme();
    this.narrow = NARROW.matches;
    this.compact = COMPACT.matches;
    this.navOpen = false;
  }

  get #t(): DemoStrings {
    return demoStrings[this.preferences.lang];
  }

  get #chat(): PiChat | null {
    return this.renderRoot.querySelector("pi-chat");
  }

  get #list(): PiSessionList | null {
    return this.renderRoot.querySelector("pi-session-list");
  }

  #historyFor(token: string | undefined): DemoHistory | undefined {
    if (token === undefined) return undefined;
    return new DemoHistory(token, (session) => {
      if (session.name === this.#name) this.summary = session;
    });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    const layout = () => {
      this.narrow = NARROW.matches;
      this.compact = COMPACT.matches;
      if (!this.narrow) this.navOpen = false;
    };
    NARROW.addEventListener("change", layout);
    COMPACT.addEventListener("change", layout);
    this.#cleanup.push(
      () => NARROW.removeEventListener("change", layout),
      () => COMPACT.removeEventListener("change", layout),
      onSystemThemeChange(() => {
        if (this.preferences.theme === undefined) this.theme = systemTheme();
      }),
      onTokenStored((token) => this.#useToken(token)),
      onSessionNavigation((name) => void this.#open(name ?? this.#defaultSession(), "none")),
    );
    void this.#start();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const remove of this.#cleanup.splice(0)) remove();
    this.#unfollow();
    void this.connection?.close();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("theme") || changed.has("preferences"))
      applyToDocument(this.theme, this.preferences.lang);
  }

  async #start(): Promise<void> {
    const paired = await this.#pairing.fromAddress();
    if (paired !== undefined) return this.#useToken(paired, true);
    if (this.token === undefined || this.#pairing.shown) return;
    // Offline (the page came from the service worker) there is no config: the banner says why.
    this.config = await loadDemoConfig().catch(() => this.config);
    await this.#open(sessionInLocation() ?? this.#defaultSession(), "replace", true);
  }

  #defaultSession(): string {
    return localStorage.getItem(LAST_SESSION_KEY) ?? "main";
  }

  #useToken(token: string, restart = false): void {
    storeToken(token);
    const rejected = restart || this.tokenRejected || this.token === undefined;
    if (token !== this.token) this.history = this.#historyFor(token);
    this.token = token;
    this.tokenRejected = false;
    this.tokenError = false;
    if (rejected) {
      this.problem = undefined;
      void this.#start();
    }
  }

  /**
   * Shows session `name`: closes the current connection, connects, and records the choice in the
   * address (`push` for a new entry, `replace`, or `none` when the address already says it).
   */
  async #open(name: string, mode: "push" | "replace" | "none", force = false): Promise<void> {
    const token = this.token;
    if (token === undefined) return;
    if (!force && name === this.#name && this.problem === undefined) return;
    const opening = ++this.#opening;
    // The restart notice is about the conversation it was shown on.
    if (name !== this.#name) this.restarted = false;
    this.#name = name;
    this.navOpen = false;
    this.problem = undefined;
    this.state = undefined;
    if (this.summary?.name !== name) this.summary = undefined;
    localStorage.setItem(LAST_SESSION_KEY, name);
    if (mode !== "none") showSessionInLocation(name, mode);
    await this.#detach();
    try {
      const connection = await connectSession(name, token, {
        // Called while connecting too, before `connection` exists: the attempt's number says
        // whether this is still the conversation shown.
        state: (state) => this.#stateChanged(opening, state),
        closed: (info) => this.#closed(connection, info),
      });
      if (opening !== this.#opening) {
        await connection.close();
        return;
      }
      this.connection = connection;
      this.#follow(connection);
    } catch (error) {
      if (opening !== this.#opening) return;
      this.#fail(error instanceof ConnectFailure ? problemOf(error.info) : failedProblem(error));
    }
    // Opening a conversation by its address may have created it: the list shows it now.
    void this.#list?.refresh();
  }

  /** Closes the open connection; its close is then no problem to report. */
  async #detach(): Promise<void> {
    const previous = this.connection;
    this.connection = undefined;
    this.#unfollow();
    await previous?.close();
  }

  /**
   * Keeps the title current: when pi has taken a message of the user's (the first one titles the
   * conversation), after each run and after each session change.
   */
  #follow(connection: SessionConnection): void {
    const refresh = () => void this.#refreshSummary(connection.name);
    const transport = connection.transport;
    let tookBack = false;
    const controlChanged = () => {
      const control = transport.control;
      if (control === undefined) return;
      // Labels are unique per tab here: a controller with this tab's label is this tab's previous
      // socket (a reload the bridge has not seen go yet), so this tab takes its control back.
      const own = control.controller?.label === control.you.label;
      if (own && !control.inControl && !control.you.readOnly && !tookBack) {
        tookBack = true;
        void transport.takeControl().catch(() => undefined);
      }
    };
    transport.addEventListener("controlchange", controlChanged);
    controlChanged();
    const offs = [
      connection.client.on("message_end", ({ message }) => {
        if (message.role !== "user") return;
        // pi took a message: whatever the restart notice said is history now.
        this.restarted = false;
        refresh();
      }),
      connection.client.on("run_settled", refresh),
      connection.client.on("session_changed", refresh),
    ];
    this.#unfollow = () => {
      for (const off of offs.splice(0)) off();
      transport.removeEventListener("controlchange", controlChanged);
    };
    refresh();
  }

  async #refreshSummary(name: string): Promise<void> {
    // The title is decoration: without it the chat shows the session's name.
    const summary = await this.history?.get(name).catch(() => undefined);
    if (name !== this.#name) return;
    this.summary = summary;
    this.titleLooked = name;
  }

  #stateChanged(opening: number, state: ConnectionState): void {
    if (opening !== this.#opening) return;
    this.#outages.note(state);
    this.state = state;
    if (state.status === "open" && state.generation > 1) void this.#checkRestart();
  }

  #closed(connection: SessionConnection, info: TransportCloseInfo): void {
    // A connection the page closed itself (switching chats) is no problem.
    if (connection !== this.connection || info.reason === "closed") return;
    this.#fail(problemOf(info));
    void this.#list?.refresh();
  }

  #fail(problem: ConnectionProblem): void {
    if (problem.kind === "token") this.tokenRejected = true;
    else this.problem = problem;
  }

  /** After a reconnect: did the server restart? Then say so. */
  async #checkRestart(): Promise<void> {
    const now = await loadDemoConfig().catch(() => undefined);
    if (now !== undefined && this.config !== undefined && now.instance !== this.config.instance) {
      this.config = now;
      this.restarted = true;
      this.#hideRestartNoticeOnceRead();
    }
  }

  /** Hides the restart notice once it was on a visible page for a while. */
  #hideRestartNoticeOnceRead(): void {
    if (document.visibilityState !== "visible") {
      document.addEventListener("visibilitychange", () => this.#hideRestartNoticeOnceRead(), {
        once: true,
      });
      return;
    }
    clearTimeout(this.#restartNotice);
    this.#restartNotice = setTimeout(() => (this.restarted = false), RESTART_NOTICE_MS);
  }

  /** The banner's remedy: start the session's pi again where it stopped, then reconnect. */
  async #reopen(problem: ConnectionProblem): Promise<void> {
    const name = this.#name ?? this.#defaultSession();
    if (problem.kind === "exited" || problem.kind === "closed") {
      try {
        await this.history?.create(name);
      } catch (error) {
        this.#fail(historyProblem(error));
        return;
      }
    }
    await this.#open(name, "none", true);
  }

  #selected(event: PiSessionSelectEvent): void {
    this.summary = event.session;
    this.navOpen = false;
    if (event.fork === undefined) void this.#open(event.session.name, "push");
    else void this.#openFork(event.session.name, event.fork.file);
  }

  /**
   * Shows another file of conversation `name` (the one a fork came from, or a fork): opens the
   * conversation unless it is open, then switches its pi to that file, which the bridge then
   * resumes from. The chat, the tree and the list follow the switch (`session_changed`).
   */
  async #openFork(name: string, file: string): Promise<void> {
    if (name !== this.#name || this.connection === undefined) await this.#open(name, "push");
    const client = this.connection?.client;
    if (client === undefined || name !== this.#name) return;
    try {
      await client.switchSession(file);
    } catch (error) {
      this.#fail(failedProblem(error));
    }
  }

  /** Deleting the open conversation stops its pi: let go of it first, so that is no problem. */
  #deleting(event: PiSessionDeleteEvent): void {
    if (event.session.name === this.#name) void this.#detach();
  }

  /** After the open conversation was deleted: the next one in the list, else a new chat. */
  #deleted(event: PiSessionDeletedEvent): void {
    if (event.session.name !== this.#name) return;
    const next = this.#list?.sessions[0];
    if (next === undefined) void this.#list?.create();
    else {
      this.summary = next;
      void this.#open(next.name, "replace");
    }
  }

  /** The sidebar's calls fail in its own words; only a refused token concerns the whole page. */
  #historyFailed(event: PiErrorEvent): void {
    if (historyProblem(event.error).kind === "token") this.tokenRejected = true;
  }

  #forked(event: PiForkedEvent): void {
    if (event.cancelled) return;
    // The client brings the transcript to the new branch by itself (session_changed).
    this.#chat?.composer?.setText(event.text);
  }

  #setPreferences(change: Partial<Preferences>): void {
    this.preferences = { ...this.preferences, ...change };
    savePreferences(this.preferences);
    if ("theme" in change) this.theme = this.preferences.theme ?? systemTheme();
  }

  #toggleNav(open: boolean): void {
    this.navOpen = open;
    void this.updateComplete.then(() => {
      const target = open ? "pi-session-list" : ".menu-button";
      this.renderRoot.querySelector<HTMLElement>(target)?.focus();
    });
  }

  #keydown(event: KeyboardEvent): void {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    if (this.navOpen) this.#toggleNav(false);
    else if (this.preferences.panel && this.compact) this.#setPreferences({ panel: false });
  }

  protected override render(): unknown {
    if (this.#pairing.shown) return this.#pairing.screen(this.#t);
    if (this.token === undefined || this.tokenRejected)
      return tokenScreen({
        rejected: this.tokenRejected,
        invalid: this.tokenError,
        strings: this.#t,
        submit: (token, typed) => {
          if (isPairCode(typed))
            void this.#pairing.redeem(typed).then((paired) => paired && this.#useToken(paired));
          else if (token === undefined) this.tokenError = true;
          else this.#useToken(token);
        },
      });
    const t = this.#t;
    const lang = this.preferences.lang;
    const client = this.connection?.client;
    const panel = this.preferences.panel;
    return html`
      <pi-provider .client=${client} @keydown=${this.#keydown}>
        <aside
          id="sidebar"
          class="sidebar ${this.navOpen ? "open" : ""} ${this.state?.status === "reconnecting" ? "offline" : ""}"
          aria-label=${t.history}
          ?inert=${this.narrow && !this.navOpen}
        >
          <div class="brand">
            <span class="logo" aria-hidden="true">π</span>
            <span class="brand-name">${t.title}</span>
            ${
              this.narrow
                ? html`<button class="icon-button" aria-label=${t.closeMenu} @click=${() => this.#toggleNav(false)}>${icons.close}</button>`
                : nothing
            }
          </div>
          <pi-session-list
            .history=${this.history}
            selected=${this.#name ?? ""}
            lang=${lang}
            @pi-session-select=${this.#selected}
            @pi-session-delete=${this.#deleting}
            @pi-session-deleted=${this.#deleted}
            @pi-error=${this.#historyFailed}
          ></pi-session-list>
          <div class="sidebar-foot">
            ${
              // Until the server described itself (never, offline) there is no model to name.
              this.config === undefined
                ? nothing
                : html`<span class="model-badge ${this.config.scripted ? "scripted" : ""}">
                    ${this.config.scripted ? t.scripted : this.config.label}
                  </span>`
            }
          </div>
        </aside>
        <div
          class="scrim ${this.navOpen || (panel && this.compact) ? "shown" : ""} ${this.navOpen ? "nav" : ""}"
          @click=${() => (this.navOpen ? this.#toggleNav(false) : this.#setPreferences({ panel: false }))}
        ></div>
        <main ?inert=${this.narrow && this.navOpen}>
          <header class="topbar">
            ${
              this.narrow
                ? html`<button
                    class="icon-button menu-button"
                    aria-label=${t.openMenu}
                    aria-controls="sidebar"
                    aria-expanded=${this.navOpen ? "true" : "false"}
                    @click=${() => this.#toggleNav(true)}
                  >${icons.menu}</button>`
                : nothing
            }
            <h1 class="chat-title">${this.#title() ?? html`<span class="sr-only">${t.opening}</span>`}</h1>${this.#changes.badge(t, () => this.#setPreferences({ panel: true }))}
            <div class="pickers">
              <pi-model-picker hide-label lang=${lang}></pi-model-picker>
              <pi-thinking-picker lang=${lang}></pi-thinking-picker>
              <pi-permission-picker hide-label lang=${lang}></pi-permission-picker>
            </div>
            <div class="actions">
              ${this.#pairing.button(t, this.token, this.#name)}
              <button
                class="icon-button"
                aria-label=${panel ? t.closePanel : t.openPanel}
                aria-controls="panel"
                aria-expanded=${panel ? "true" : "false"}
                @click=${() => this.#setPreferences({ panel: !panel })}
              >${icons.panel}</button>
              <button
                class="icon-button"
                aria-label=${this.theme === "dark" ? t.toLight : t.toDark}
                @click=${() => this.#setPreferences({ theme: this.theme === "dark" ? "light" : "dark" })}
              >${this.theme === "dark" ? icons.light : icons.dark}</button>
              <button
                class="text-button"
                aria-label=${t.languageLabel}
                @click=${() => this.#setPreferences({ lang: lang === "en" ? "zh-CN" : "en" })}
              >${t.language}</button>
            </div>
          </header>
          ${problemBanner({
            problem: this.problem,
            restarted: this.restarted,
            state: this.state,
            offline: this.#network.offline,
            strings: t,
            reopen: (problem) => void this.#reopen(problem),
            dismiss: () => (this.restarted = false),
            reconnect: () => this.connection?.transport.reconnect(),
          })}
          <pi-chat
            .client=${client}
            .outboxKey=${this.#name}
            .fileSearch=${fileSearchFor(this.#name, this.token)}
            .uploads=${uploadsFor(this.connection, this.token)}
            ?connecting=${client === undefined && this.#name !== undefined && this.problem === undefined && !this.tokenRejected}
            ?show-internal=${this.preferences.internalNotices}
            notify
            lang=${lang}
          >
            ${welcomeView({
              config: this.config,
              lang: this.preferences.lang,
              strings: this.#t,
              send: (prompt) => void this.#chat?.send(prompt),
            })}
          </pi-chat>
        </main>
        ${
          panel
            ? sessionPanel({
                lang: this.preferences.lang,
                strings: this.#t,
                forks: this.#openForks(),
                changes: this.#changes.source,
                internalNotices: this.preferences.internalNotices,
                forked: (event) => this.#forked(event),
                close: () => this.#setPreferences({ panel: false }),
                showInternalNotices: (show) => this.#setPreferences({ internalNotices: show }),
              })
            : nothing
        }
        ${this.#pairing.dialog(lang, t)}
      </pi-provider>
    `;
  }

  /** The open conversation's title; `undefined` until the history said (never its bare name). */
  #title(): string | undefined {
    const summary = this.summary;
    if (summary !== undefined && summary.name === this.#name)
      return summary.title || this.#t.untitled;
    return this.titleLooked === this.#name ? this.#t.untitled : undefined;
  }

  /** The open conversation's session files, for the tree to list its other versions. */
  #openForks(): SessionSummary["forks"] {
    return this.summary?.name === this.#name ? this.summary?.forks : undefined;
  }
}

customElements.define("demo-app", DemoApp);

declare global {
  interface HTMLElementTagNameMap {
    "demo-app": DemoApp;
  }
}
