/**
 * The demo shell: a session list from the bridge, the pi elements around one `<pi-chat>`, a
 * theme and a language toggle, and a clear message with a restart button when pi stops.
 */
import type { ConnectionState, TransportCloseInfo } from "@pi-kit/client";
import type { PiChat, PiForkedEvent } from "@pi-kit/elements";
import { css, html, LitElement, nothing } from "lit";
import { BridgeApi, type BridgeSession } from "./bridge-api.ts";
import { connectSession, type SessionConnection } from "./connection.ts";
import { type DemoLang, demoStrings, fill } from "./demo-strings.ts";

const SESSION_KEY = "pi-kit-demo:session";
const TOKEN_KEY = "pi-kit-demo:token";

/** The token from the URL fragment (then removed from the address bar), or from this tab's storage. */
function takeToken(): string | undefined {
  const match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (match?.[1]) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(match[1]));
    history.replaceState(null, "", location.pathname + location.search);
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

export class DemoApp extends LitElement {
  static override properties = {
    connection: { state: true },
    sessions: { state: true },
    label: { state: true },
    scripted: { state: true },
    state: { state: true },
    problem: { state: true },
    theme: { state: true },
    lang: { state: true },
  };

  declare connection: SessionConnection | undefined;
  declare sessions: readonly BridgeSession[];
  declare label: string;
  declare scripted: boolean;
  declare state: ConnectionState | undefined;
  declare problem: string | undefined;
  declare theme: "light" | "dark";
  declare lang: DemoLang;

  readonly #token = takeToken();
  readonly #api = this.#token ? new BridgeApi(this.#token) : undefined;

  constructor() {
    super();
    this.sessions = [];
    this.label = "";
    this.scripted = false;
    this.theme = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
    this.lang = navigator.language.startsWith("zh") ? "zh-CN" : "en";
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#start();
  }

  get #t() {
    return demoStrings[this.lang];
  }

  async #start(): Promise<void> {
    if (this.#api === undefined) return;
    const config = (await (await fetch("/demo-config.json")).json()) as {
      label: string;
      scripted: boolean;
    };
    this.label = config.label;
    this.scripted = config.scripted;
    await this.#open(localStorage.getItem(SESSION_KEY) ?? "main");
  }

  async #open(name: string): Promise<void> {
    if (this.#token === undefined || this.#api === undefined) return;
    await this.connection?.close();
    this.connection = undefined;
    this.problem = undefined;
    localStorage.setItem(SESSION_KEY, name);
    try {
      this.connection = await connectSession(name, this.#token, {
        state: (state) => {
          this.state = state;
        },
        closed: (info) => this.#closed(name, info),
      });
    } catch (error) {
      this.problem = error instanceof Error ? error.message : String(error);
    }
    await this.#refreshSessions();
  }

  #closed(name: string, info: TransportCloseInfo): void {
    if (this.connection?.name !== name) return;
    this.problem =
      info.reason === "exit"
        ? fill(this.#t.piStopped, { code: info.exitCode ?? info.signal ?? "?" })
        : fill(this.#t.piClosed, { reason: info.reason });
    void this.#refreshSessions();
  }

  async #refreshSessions(): Promise<void> {
    this.sessions = (await this.#api?.list()) ?? [];
  }

  async #restart(): Promise<void> {
    const name = this.connection?.name ?? localStorage.getItem(SESSION_KEY) ?? "main";
    await this.#api?.create(name);
    await this.#open(name);
  }

  async #newSession(): Promise<void> {
    await this.#open(`session-${Date.now().toString(36)}`);
  }

  async #closeSession(name: string): Promise<void> {
    if (this.connection?.name === name) {
      await this.connection.close();
      this.connection = undefined;
    }
    await this.#api?.close(name);
    await this.#refreshSessions();
  }

  #forked(event: PiForkedEvent): void {
    if (event.cancelled) return;
    this.renderRoot.querySelector<PiChat>("pi-chat")?.composer?.setText(event.text);
    void this.connection?.client.session.resync();
  }

  protected override render(): unknown {
    const t = this.#t;
    if (this.#token === undefined) return html`<p class="notice">${t.noToken}</p>`;
    const client = this.connection?.client;
    return html`
      <pi-provider .client=${client}>
        <header>
          <h1>${t.title}</h1>
          <span class="badge ${this.scripted ? "scripted" : ""}">${this.label}</span>
          <span class="spacer"></span>
          <pi-model-picker theme=${this.theme} lang=${this.lang}></pi-model-picker>
          <pi-thinking-picker theme=${this.theme} lang=${this.lang}></pi-thinking-picker>
          <button @click=${() => (this.theme = this.theme === "dark" ? "light" : "dark")}>
            ${t.theme}: ${this.theme === "dark" ? t.dark : t.light}
          </button>
          <button @click=${() => (this.lang = this.lang === "en" ? "zh-CN" : "en")}>${t.language}</button>
        </header>
        <aside>
          <section aria-labelledby="sessions-title">
            <h2 id="sessions-title">${t.sessions}</h2>
            <ul>
              ${this.sessions.map(
                (s) => html`<li>
                  <button
                    class="session"
                    aria-current=${this.connection?.name === s.name ? "true" : "false"}
                    @click=${() => this.#open(s.name)}
                  >
                    ${s.name} <small>${s.state}</small>
                  </button>
                  <button class="close" aria-label="${t.closeSession} ${s.name}" @click=${() => this.#closeSession(s.name)}>×</button>
                </li>`,
              )}
            </ul>
            <button @click=${this.#newSession}>${t.newSession}</button>
          </section>
          <section>
            <h2>${t.stats}</h2>
            <pi-session-stats theme=${this.theme} lang=${this.lang}></pi-session-stats>
          </section>
          <section>
            <h2>${t.fork}</h2>
            <pi-fork-picker theme=${this.theme} lang=${this.lang} @pi-forked=${this.#forked}></pi-fork-picker>
          </section>
          <section>
            <h2>${t.tree}</h2>
            <pi-session-tree theme=${this.theme} lang=${this.lang}></pi-session-tree>
          </section>
        </aside>
        <main>
          ${this.#banner()}
          <pi-chat .client=${client} theme=${this.theme} lang=${this.lang}>
            <p slot="empty" class="hint">${t.tryIt}</p>
          </pi-chat>
        </main>
      </pi-provider>
    `;
  }

  #banner(): unknown {
    const t = this.#t;
    if (this.problem !== undefined) {
      return html`<div class="banner" role="alert">
        ${this.problem} <button @click=${this.#restart}>${t.restart}</button>
      </div>`;
    }
    if (this.state?.status === "reconnecting") {
      return html`<div class="banner" role="status">${fill(t.reconnecting, { attempt: this.state.attempt })}</div>`;
    }
    if (this.connection === undefined)
      return html`<div class="banner" role="status">${t.connecting}</div>`;
    return nothing;
  }

  static override styles = css`
    :host {
      display: grid;
      grid-template: "header header" auto "aside main" 1fr / 18rem 1fr;
      height: 100vh;
      color-scheme: light dark;
    }
    header {
      grid-area: header;
      display: flex;
      align-items: center;
      gap: 0.75rem;
      padding: 0.5rem 1rem;
      border-bottom: 1px solid color-mix(in srgb, CanvasText 15%, transparent);
    }
    h1 {
      font-size: 1.1rem;
      margin: 0;
    }
    h2 {
      font-size: 0.85rem;
      text-transform: uppercase;
      letter-spacing: 0.04em;
      margin: 0 0 0.5rem;
    }
    .badge {
      font-size: 0.8rem;
      padding: 0.15rem 0.5rem;
      border-radius: 999px;
      border: 1px solid currentColor;
    }
    .badge.scripted {
      color: #9a5b00;
    }
    .spacer {
      flex: 1;
    }
    aside {
      grid-area: aside;
      overflow: auto;
      padding: 1rem;
      display: grid;
      grid-template-columns: minmax(0, 1fr);
      gap: 1.25rem;
      align-content: start;
      border-right: 1px solid color-mix(in srgb, CanvasText 15%, transparent);
    }
    ul {
      list-style: none;
      margin: 0 0 0.5rem;
      padding: 0;
    }
    li {
      display: flex;
      gap: 0.25rem;
      margin-bottom: 0.25rem;
    }
    section > * {
      max-width: 100%;
    }
    .session {
      flex: 1;
      text-align: start;
    }
    .session[aria-current="true"] {
      font-weight: 600;
    }
    main {
      grid-area: main;
      display: flex;
      flex-direction: column;
      min-height: 0;
    }
    pi-chat {
      flex: 1;
      min-height: 0;
    }
    .banner {
      padding: 0.5rem 1rem;
      background: color-mix(in srgb, #d97706 20%, Canvas);
    }
    .hint,
    .notice {
      opacity: 0.8;
      padding: 1rem;
    }
    @media (max-width: 50rem) {
      :host {
        grid-template: "header" auto "main" 1fr / 1fr;
      }
      aside {
        display: none;
      }
    }
  `;
}

customElements.define("demo-app", DemoApp);

declare global {
  interface HTMLElementTagNameMap {
    "demo-app": DemoApp;
  }
}
