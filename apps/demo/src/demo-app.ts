/**
 * The demo shell: the history of conversations (`<pi-session-list>`) in a sidebar (a drawer on
 * small screens), one `<pi-chat>` with the model and thinking pickers above it, a session panel (statistics, changes, fork picker, tree), and
 * what a visitor needs when something goes wrong: a token screen, and a banner with the remedy
 * for each connection problem. Every colour comes from the pi elements' own tokens.
 */
import type { ConnectionState, TransportCloseInfo } from "@pi-kit/client";
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
import { ConnectFailure, connectSession, type SessionConnection } from "./connection.ts";
import {
  type ConnectionProblem,
  failedProblem,
  historyProblem,
  problemOf,
} from "./connection-problem.ts";
import { ConversationTitle } from "./conversation-title.ts";
import { shellStyles } from "./demo-app.styles.ts";
import { type DemoConfig, loadDemoConfig } from "./demo-config.ts";
import { DemoHistory } from "./demo-history.ts";
import { type DemoStrings, demoStrings } from "./demo-strings.ts";
import { fileSearchFor } from "./file-search.ts";
import { NetworkStatus } from "./network-status.ts";
import { OutageLog } from "./outage-log.ts";
import { takeBackOwnControl } from "./own-control.ts";
import { PageAccess } from "./page-access.ts";
import { PairingFlow } from "./pair-device.ts";
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
import { RestartNotice } from "./restart-notice.ts";
import {
  onSessionNavigation,
  sessionInLocation,
  showSessionInLocation,
} from "./session-location.ts";
import { sessionPanel } from "./session-panel.ts";
import { ShellLayout } from "./shell-layout.ts";
import { sidebar } from "./sidebar.ts";
import { topbar } from "./topbar.ts";
import { uploadsFor } from "./uploads.ts";
import { welcomeView } from "./welcome-view.ts";
import { ChangesTracker } from "./workspace-changes.ts";

const LAST_SESSION_KEY = "pi-kit-demo:session";

export class DemoApp extends LitElement {
  static override styles = [tokenStyles, shellStyles];
  static override properties = {
    theme: { type: String, reflect: true },
    config: { state: true },
    history: { state: true },
    connection: { state: true },
    state: { state: true },
    problem: { state: true },
    preferences: { state: true },
  };

  /** The scheme in force; the pi elements inside inherit it. */
  declare theme: Theme;
  declare config: DemoConfig | undefined;
  declare history: DemoHistory | undefined;
  declare connection: SessionConnection | undefined;
  declare state: ConnectionState | undefined;
  declare problem: ConnectionProblem | undefined;
  declare preferences: Preferences;

  #name: string | undefined;
  #opening = 0;
  /** The console's line when the connection drops and when it is back. */
  readonly #outages = new OutageLog();
  readonly #restart = new RestartNotice(this);
  readonly #layout = new ShellLayout(this);
  /** The open conversation's title and files, as the history lists them. */
  readonly #title = new ConversationTitle(this, () => this.#name);
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

  /** The bridge token, and the screen that asks for one. */
  readonly #access = new PageAccess(this, ({ changed, restart }) => {
    if (changed) this.history = this.#historyFor(this.token);
    if (restart) {
      this.problem = undefined;
      void this.#start();
    }
  });

  constructor() {
    super();
    this.history = this.#historyFor(this.token);
    this.preferences = loadPreferences();
    this.theme = this.preferences.theme ?? systemTheme();
  }

  /** The token the page connects with, if it has one. */
  get token(): string | undefined {
    return this.#access.token;
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
      if (session.name === this.#name) this.#title.note(session);
    });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#cleanup.push(
      onSystemThemeChange(() => {
        if (this.preferences.theme === undefined) this.theme = systemTheme();
      }),
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
    if (paired !== undefined) return this.#access.use(paired, true);
    if (this.token === undefined || this.#pairing.shown) return;
    // Offline (the page came from the service worker) there is no config: the banner says why.
    this.config = await loadDemoConfig().catch(() => this.config);
    await this.#open(sessionInLocation() ?? this.#defaultSession(), "replace", true);
  }

  #defaultSession(): string {
    return localStorage.getItem(LAST_SESSION_KEY) ?? "main";
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
    if (name !== this.#name) this.#restart.hide();
    this.#name = name;
    this.#layout.closeNav();
    this.problem = undefined;
    this.state = undefined;
    this.#title.opening(name);
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
    const refresh = () => void this.#title.refresh(this.history, connection.name);
    const offs = [
      takeBackOwnControl(connection.transport),
      connection.client.on("message_end", ({ message }) => {
        if (message.role !== "user") return;
        // pi took a message: whatever the restart notice said is history now.
        this.#restart.hide();
        refresh();
      }),
      connection.client.on("run_settled", refresh),
      connection.client.on("session_changed", refresh),
    ];
    this.#unfollow = () => {
      for (const off of offs.splice(0)) off();
    };
    refresh();
  }

  #stateChanged(opening: number, state: ConnectionState): void {
    if (opening !== this.#opening) return;
    this.#outages.note(state);
    this.state = state;
    if (state.status === "open" && state.generation > 1) void this.#restart.check();
  }

  #closed(connection: SessionConnection, info: TransportCloseInfo): void {
    // A connection the page closed itself (switching chats) is no problem.
    if (connection !== this.connection || info.reason === "closed") return;
    this.#fail(problemOf(info));
    void this.#list?.refresh();
  }

  #fail(problem: ConnectionProblem): void {
    if (problem.kind === "token") this.#access.refused();
    else this.problem = problem;
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
    this.#title.note(event.session);
    this.#layout.closeNav();
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
      this.#title.note(next);
      void this.#open(next.name, "replace");
    }
  }

  /** The sidebar's calls fail in its own words; only a refused token concerns the whole page. */
  #historyFailed(event: PiErrorEvent): void {
    if (historyProblem(event.error).kind === "token") this.#access.refused();
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

  #keydown(event: KeyboardEvent): void {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    if (this.#layout.navOpen) this.#layout.toggleNav(false);
    else if (this.preferences.panel && this.#layout.compact) this.#setPreferences({ panel: false });
  }

  protected override render(): unknown {
    if (this.#pairing.shown) return this.#pairing.screen(this.#t);
    const access = this.#access.screen(this.#t, this.#pairing);
    if (access !== undefined) return access;
    const t = this.#t;
    const lang = this.preferences.lang;
    const client = this.connection?.client;
    const panel = this.preferences.panel;
    const layout = this.#layout;
    const { narrow, compact, navOpen } = layout;
    return html`
      <pi-provider .client=${client} @keydown=${this.#keydown}>
        ${sidebar({
          lang,
          strings: t,
          history: this.history,
          selected: this.#name,
          config: this.config,
          narrow,
          open: navOpen,
          offline: this.state?.status === "reconnecting",
          close: () => layout.toggleNav(false),
          select: (event) => this.#selected(event),
          deleting: (event) => this.#deleting(event),
          deleted: (event) => this.#deleted(event),
          failed: (event) => this.#historyFailed(event),
        })}
        <div
          class="scrim ${navOpen || (panel && compact) ? "shown" : ""} ${navOpen ? "nav" : ""}"
          @click=${() => (navOpen ? layout.toggleNav(false) : this.#setPreferences({ panel: false }))}
        ></div>
        <main ?inert=${narrow && navOpen}>
          ${topbar({
            lang,
            strings: t,
            narrow,
            navOpen,
            title: this.#title.title(t.untitled),
            changes: this.#changes.badge(t, () => this.#setPreferences({ panel: true })),
            pairing: this.#pairing.button(t, this.token, this.#name),
            panel,
            theme: this.theme,
            openNav: () => layout.toggleNav(true),
            showPanel: (show) => this.#setPreferences({ panel: show }),
            setTheme: (theme) => this.#setPreferences({ theme }),
            setLang: (lang) => this.#setPreferences({ lang }),
          })}
          ${problemBanner({
            problem: this.problem,
            restarted: this.#restart.shown,
            state: this.state,
            offline: this.#network.offline,
            strings: t,
            reopen: (problem) => void this.#reopen(problem),
            dismiss: () => this.#restart.hide(),
            reconnect: () => this.connection?.transport.reconnect(),
          })}
          <pi-chat
            .client=${client}
            .outboxKey=${this.#name}
            .fileSearch=${fileSearchFor(this.#name, this.token)}
            .uploads=${uploadsFor(this.connection, this.token)}
            ?connecting=${client === undefined && this.#name !== undefined && this.problem === undefined && !this.#access.rejected}
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
                forks: this.#title.forks(),
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
}

customElements.define("demo-app", DemoApp);

declare global {
  interface HTMLElementTagNameMap {
    "demo-app": DemoApp;
  }
}
