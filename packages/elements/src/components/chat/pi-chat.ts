import { ContextProvider } from "@lit/context";
import type { BashRun, PiClient, SessionModel, SessionSnapshot } from "@pi-kit/client";
import type { BashExecutionMessage } from "@pi-kit/protocol";
import { html, LitElement, nothing } from "lit";
import { ConnectionController, refreshOnChanges } from "../../internal/connection-controller.ts";
import { ConnectionStatusController } from "../../internal/connection-status.ts";
import { type PiConnection, piConnectionContext } from "../../internal/context.ts";
import { ControlController } from "../../internal/control-controller.ts";
import {
  PiAbortEvent,
  PiErrorEvent,
  PiRestoreQueueEvent,
  PiSendEvent,
  type SendMode,
} from "../../internal/events.ts";
import { format, type PiStrings } from "../../internal/i18n.ts";
import { icons } from "../../internal/icons.ts";
import { LocaleController } from "../../internal/locale-controller.ts";
import type { PiRenderers } from "../../internal/renderers.ts";
import { SrcController, type TokenSource } from "../../internal/src-controller.ts";
import { RunNotifier } from "../../notifications/run-notifier.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import { AutoScroll } from "./auto-scroll.ts";
import { BashRunFilter } from "./bash-runs.ts";
import { chatStyles } from "./pi-chat.styles.ts";
import type { ComposerSubmitEvent, PiComposer } from "./pi-composer.ts";
import { statusBar, UsageTotals } from "./status-bar.ts";
import { dialogOwners } from "./tool-dialogs.ts";
import { ToolIndex } from "./tool-index.ts";
import { TranscriptFilter } from "./transcript-filter.ts";

/**
 * A complete chat with the pi coding agent: the streaming transcript (markdown, thinking, tool
 * calls with live output, shell runs, summaries), a composer with queueing, steering, abort and
 * images, and a status bar. Give it a `client` (or just a `session` model for a read-only view),
 * or put it inside a `<pi-provider>`. It also hosts the client's extension dialogs (a non-modal
 * `<pi-dialog>` above the composer) and notifications (a `<pi-toasts>` column between the
 * transcript and the composer, so they never cover text); `no-dialogs` / `no-toasts` leave those
 * to elements the page places itself. A run of failed attempts of one request shows as one error
 * with the attempt count and a hint; pi's internal notices (the system prompt) are hidden unless
 * `show-internal` is set. It
 * provides its connection to every pi element inside it (slots included), like `<pi-provider>`.
 *
 * With `src` (a bridge session's WebSocket URL) it connects by itself, reconnecting after drops,
 * so a page needs only the one-file bundle and the tag; `token-from` says where the bridge token
 * is: the `token` attribute (the default), the page URL's `#token=` fragment, or a
 * `pi-token-request` event the page answers.
 *
 * Only one element answers a client's dialogs (and one shows its toasts): the first connected;
 * later ones stand by and take over when it goes away. A client created with its own
 * `dialogHandler` is taken over by the chat's dialog unless `no-dialogs` is set.
 *
 * Keyboard: Enter sends; Shift+Enter adds a line; while pi responds Enter queues a follow-up,
 * Ctrl/⌘+Enter steers, Escape stops, Alt+↑ takes the queued messages back into the editor.
 * Typing `/` opens the slash-command menu: ↑ ↓ move, Enter or Tab chooses, Escape closes it.
 *
 * @tagname pi-chat
 * @summary The pi chat.
 * @event pi-send - Before a message is sent; cancel it to send it yourself. {@link PiSendEvent}
 * @event pi-abort - Before the run is aborted; cancelable.
 * @event pi-restore-queue - Before queued messages are taken back into the editor; cancelable.
 * @event pi-error - An action through the client failed (`connect` when `src` could not connect, `take-control` when the bridge refused).
 * @event pi-token-request - With `token-from="event"`: asks the page for the bridge token. {@link PiTokenRequestEvent}
 * @slot header - Content above the status bar (for example a model picker).
 * @slot empty - Shown while the transcript is empty.
 * @csspart dialog - The extension dialog panel (from the built-in `<pi-dialog>`).
 * @csspart toasts - The column of notifications (from the built-in `<pi-toasts>`).
 * @csspart toast - One notification.
 * @csspart header - The header row (title and header slot).
 * @csspart title - The title an extension set.
 * @csspart status-bar - Connection, model, run state, usage and extension statuses.
 * @csspart notify-button - "Notify me" (with `notify`, until desktop notifications are allowed or refused).
 * @csspart transcript - The scrolling log.
 * @csspart jump-button - "Jump to latest", shown when scrolled up.
 * @csspart queue - The queued messages.
 * @csspart restore-button - Takes queued messages back into the editor.
 * @csspart watch-bar - "Watching — … is in control", above the disabled composer of a viewer that watches a shared bridge session.
 * @csspart take-control-button - "Take control" in the watch bar.
 * @csspart widget - An extension widget (above or below the composer).
 * @csspart composer - The composer form.
 * @csspart input - The composer textarea.
 * @csspart send-button - Send / follow-up.
 * @csspart steer-button - Steer.
 * @csspart stop-button - Stop.
 * @csspart slash-menu - The slash-command popup above the composer.
 * @csspart bubble - A user message bubble.
 * @csspart text - Assistant markdown.
 * @csspart thinking - A thinking block.
 * @csspart tool-call - A tool call card.
 * @csspart tool-header - A tool call's summary line.
 * @csspart tool-output - A tool call's output.
 * @csspart error - An error marker.
 * @csspart notice - System, compaction and branch summaries.
 * @cssproperty [--pi-color-bg=#ffffff] - Background.
 * @cssproperty [--pi-color-fg=#1b1d22] - Text colour.
 * @cssproperty [--pi-color-muted=#565c69] - Secondary text.
 * @cssproperty [--pi-color-border=#d5d9e0] - Borders.
 * @cssproperty [--pi-color-surface=#f4f5f7] - Cards and buttons.
 * @cssproperty [--pi-color-user=#eaf0ff] - User message bubbles.
 * @cssproperty [--pi-color-accent=#2f4cc9] - Links, focus, primary buttons.
 * @cssproperty [--pi-color-danger=#b42318] - Errors.
 * @cssproperty [--pi-font-family=system-ui] - Text font.
 * @cssproperty [--pi-font-mono=ui-monospace] - Code font.
 * @cssproperty [--pi-radius=0.5rem] - Corner radius.
 * @cssproperty [--max-width=52rem] - Width of the transcript column.
 * @cssstate running - A run is in progress.
 * @cssstate empty - There are no messages.
 * @cssstate watching - Another viewer of the bridge session is in control: the composer is disabled.
 */
export class PiChat extends LitElement {
  static override styles = [tokenStyles, baseStyles, chatStyles];
  static override properties = {
    client: { attribute: false },
    session: { attribute: false },
    strings: { attribute: false },
    renderers: { attribute: false },
    imageHosts: {
      attribute: "image-hosts",
      converter: { fromAttribute: (v: string | null) => v?.split(/[\s,]+/).filter(Boolean) ?? [] },
    },
    theme: { type: String, reflect: true },
    pageSize: { type: Number, attribute: "page-size" },
    lang: { type: String, reflect: true },
    noDialogs: { type: Boolean, attribute: "no-dialogs" },
    noToasts: { type: Boolean, attribute: "no-toasts" },
    showInternal: { type: Boolean, attribute: "show-internal" },
    notify: { type: Boolean },

    src: { type: String },
    tokenFrom: { type: String, attribute: "token-from" },
    token: { type: String },
    pinned: { state: true },
  };

  /** The client that sends prompts and renders its session. */
  declare client: PiClient | undefined;
  /** A session model to render when there is no client (read-only unless `pi-send` is handled). */
  declare session: SessionModel | undefined;
  /** Overrides for the built-in strings of the resolved language. */
  declare strings: Partial<PiStrings> | undefined;
  /** Custom renderers per tool name and message role. */
  declare renderers: PiRenderers | undefined;
  /**
   * Hosts whose images in answers load without a click (`img.example.com`, `*.example.com`);
   * attribute: space-separated. Others wait for a click: an image URL can leak data.
   */
  declare imageHosts: readonly string[] | undefined;
  /** `light`, `dark`, or `auto` / unset to follow `prefers-color-scheme`. */
  declare theme: "light" | "dark" | "auto" | undefined;
  /** Messages rendered at first and added per "show earlier" (windowing). */
  declare pageSize: number;
  /** Leaves extension dialogs to a `<pi-dialog>` placed elsewhere (the built-in one is not rendered). */
  declare noDialogs: boolean;
  /** Leaves notifications to a `<pi-toasts>` placed elsewhere (the built-in one is not rendered). */
  declare noToasts: boolean;
  /** Shows pi's internal notices (the system prompt it sends with every run), hidden by default. */
  declare showInternal: boolean;
  /**
   * Tells the user when a run finishes or pi needs an answer while the tab is hidden: a count in
   * the page title, and desktop notifications once allowed (a "Notify me" button in the status
   * bar asks). See `RunNotifier`.
   */
  declare notify: boolean;

  /** A bridge session's WebSocket URL (`wss://host/sessions/name/ws`, or relative) to connect to by itself. */
  declare src: string | undefined;
  /** Where the token for `src` comes from: `attribute` (the `token` attribute; default), `fragment` or `event`. */
  declare tokenFrom: TokenSource | undefined;
  /** The bridge token for `src`. */
  declare token: string | undefined;
  /**
   * True while the view sticks to the bottom.
   * @internal
   */
  declare pinned: boolean;

  // Nested elements (the built-in dialog and toasts, the slash menu, slotted pickers) get the
  // chat's connection through context, with no wiring.
  readonly #provider = new ContextProvider(this, { context: piConnectionContext });
  // Not on connect: the status bar fills its context figure after the first run.
  readonly #refreshStats = refreshOnChanges(() => this.#loadStats(), { initial: false });
  readonly #connection = new ConnectionController(this, {
    observe: true,
    changed: (next, previous) => {
      this.#provider.setValue(next);
      this.#refreshStats(next, previous);
    },
  });
  readonly #bashRuns = new BashRunFilter();
  readonly #internals = this.attachInternals();
  readonly #totals = new UsageTotals();
  readonly #tools = new ToolIndex();
  readonly #transcript = new TranscriptFilter();
  readonly #scroll = new AutoScroll(this, (pinned) => {
    this.pinned = pinned;
  });
  readonly #locale = new LocaleController(this);
  #announcement = "";
  #wasRunning = false;
  #editorText: string | undefined;
  readonly #status = new ConnectionStatusController(this);
  readonly #control = new ControlController(this);
  #notifier: { client: PiClient; notifier: RunNotifier } | undefined;

  constructor() {
    super();
    new SrcController(this);
    // A fork picker or session tree inside the chat hands the forked message to the composer.
    this.addEventListener("pi-forked", (event) => {
      if (event.cancelled || event.text === "") return;
      this.composer?.setText(event.text);
      this.composer?.focus();
    });
    this.pageSize = 60;
    this.noDialogs = false;
    this.noToasts = false;
    this.showInternal = false;
    this.notify = false;
    this.pinned = true;
  }

  /** The current snapshot (what is on screen, at most one frame behind the model). */
  get snapshot(): SessionSnapshot | undefined {
    return this.#connection.snapshot;
  }

  /** The composer element. */
  get composer(): PiComposer | null {
    return this.renderRoot.querySelector("pi-composer");
  }

  /** The connection in use: own properties first, then a provider's. */
  get connection(): PiConnection | undefined {
    this.#connection.resolve();
    return this.#connection.connection;
  }

  /** Applies pending session changes now instead of on the next animation frame. */
  flush(): void {
    this.#connection.flush();
  }

  /** Scrolls to the newest message and sticks there. */
  scrollToBottom(): void {
    this.#scroll.pin();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#notifyFor(undefined);
  }

  protected override willUpdate(): void {
    this.#connection.resolve();
    this.#status.watch(this.#connection.connection?.client);
    this.#control.watch(this.#connection.connection?.client);
    this.#notifyFor(this.notify && this.isConnected ? this.#connection.client : undefined);
    const snapshot = this.#connection.snapshot;
    const running = snapshot?.isRunning ?? false;
    if (running !== this.#wasRunning) {
      this.#announcement = running ? this.#locale.strings.responding : this.#locale.strings.done;
      this.#wasRunning = running;
    }
    const states = this.#internals.states;
    if (running) states.add("running");
    else states.delete("running");
    const shown = this.#transcript.of(snapshot?.messages ?? [], this.showInternal);
    if (shown.length === 0 && snapshot?.streamingMessage === undefined) states.add("empty");
    else states.delete("empty");
    if (this.#control.watching) states.add("watching");
    else states.delete("watching");
  }

  protected override updated(): void {
    const editorText = this.#connection.snapshot?.ui.editorText;
    if (editorText !== this.#editorText) {
      this.#editorText = editorText;
      if (editorText !== undefined) {
        this.composer?.setText(editorText);
        this.composer?.focus();
      }
    }
    this.#scroll.afterRender();
  }

  protected override render(): unknown {
    const s = this.#locale.strings;
    const snapshot = this.#connection.snapshot;
    const connection = this.#connection.connection;
    const messages = snapshot?.messages ?? [];
    const shown = this.#transcript.of(messages, this.showInternal);
    const streaming = snapshot?.streamingMessage;
    const executions = snapshot?.toolExecutions ?? new Map();
    const watching = this.#control.watching;
    // A dialog a tool waits on is shown in its card instead of above the composer; a watcher
    // sees every dialog in the built-in one, which shows them without answering.
    const toolDialogs =
      this.noDialogs || watching ? undefined : dialogOwners(snapshot?.dialogs ?? [], executions);
    const widgets = [...(snapshot?.ui.widgets ?? [])];
    const queue = snapshot?.queue;
    const queued = (queue?.steering.length ?? 0) + (queue?.followUp.length ?? 0);
    const state = this.#status.status;
    if (streaming !== undefined) this.#tools.update(messages);
    return html`
      <div part="header" class="header">
        ${snapshot?.ui.title ? html`<h2 part="title" class="title">${snapshot.ui.title}</h2>` : nothing}
        <slot name="header"></slot>
      </div>
      ${statusBar(snapshot, state, this.#totals.of(messages), s, this.#notifyButton())}
      <div class="log-wrap">
        <div part="transcript" class="log" role="log" aria-label=${s.transcript} tabindex="0">
          <div class="column">
            ${shown.length === 0 && streaming === undefined ? html`<slot name="empty"></slot>` : nothing}
            <pi-message-list
              exportparts="show-earlier, bubble, text, thinking, image, error, notice, bash, code-block, tool-call, tool-header, tool-arguments, tool-output, actions, action, time"
              .messages=${shown}
              .toolExecutions=${executions}
              .toolDialogs=${toolDialogs}
              ?actions=${state === "connected" && !watching && !(snapshot?.isRunning ?? false)}
              .strings=${s}
              .renderers=${this.renderers}
              .imageHosts=${this.imageHosts}
              .pageSize=${this.pageSize}
              .follow=${this.pinned}
            ></pi-message-list>
            ${this.#bashRuns
              .visible(snapshot?.bashRuns ?? [])
              .map(
                (run) => html`<pi-message .strings=${s} .message=${bashMessage(run)}></pi-message>`,
              )}
            ${
              streaming
                ? html`<pi-message
                    streaming
                    exportparts="bubble, text, thinking, image, error, notice, code-block, tool-call, tool-header, tool-arguments, tool-output"
                    .message=${streaming}
                    .tools=${this.#tools.slotsFor(streaming, executions, toolDialogs)}
                    .strings=${s}
                    .renderers=${this.renderers}
                    .imageHosts=${this.imageHosts}
                  ></pi-message>`
                : nothing
            }
          </div>
        </div>
        ${
          this.pinned
            ? nothing
            : html`<button part="jump-button" class="jump" @click=${() => this.scrollToBottom()}>↓ ${s.jumpToBottom}</button>`
        }
      </div>
      <div class="sr-only" role="status" aria-live="polite">${this.#announcement}</div>
      <div class="bottom">
        ${
          this.noToasts
            ? nothing
            : html`<pi-toasts
                exportparts="stack:toasts, toast"
                max="3"
                .client=${connection?.client}
                .session=${connection?.session}
                .strings=${this.strings}
              ></pi-toasts>`
        }
        ${
          this.noDialogs
            ? nothing
            : html`<pi-dialog
                exportparts="panel:dialog"
                ?watching=${watching}
                .client=${connection?.client}
                .session=${connection?.session}
                .dialogs=${toolDialogs?.size ? snapshot?.dialogs.filter((d) => ![...toolDialogs.values()].includes(d)) : undefined}
                .strings=${this.strings}
              ></pi-dialog>`
        }
        ${widgets.filter(([, w]) => w.placement === "aboveEditor").map(([key, w]) => widget(key, w.lines))}
        ${
          queued > 0 && queue
            ? html`<div part="queue" class="queue" aria-label=${s.queueTitle} role="group">
                <ul>
                  ${queue.steering.map((text) => html`<li><span class="tag">${s.queueSteer}</span> ${text}</li>`)}
                  ${queue.followUp.map((text) => html`<li><span class="tag">${s.queueFollowUp}</span> ${text}</li>`)}
                </ul>
                <button part="restore-button" @click=${() => this.restoreQueue()}>${s.restoreQueue}</button>
              </div>`
            : nothing
        }
        ${watching ? this.#watchBar() : nothing}
        <pi-composer
          exportparts="composer, input, attachments, send-button, steer-button, stop-button, attach-button, slash-menu"
          .strings=${s}
          ?running=${snapshot?.isRunning ?? false}
          ?disabled=${state === "disconnected" || watching}
          @composer-submit=${(e: ComposerSubmitEvent) => void this.send(e.text, { images: e.images, mode: e.mode })}
          @composer-abort=${() => void this.abort()}
          @composer-restore=${() => void this.restoreQueue()}
        ></pi-composer>
        ${widgets.filter(([, w]) => w.placement === "belowEditor").map(([key, w]) => widget(key, w.lines))}
      </div>
    `;
  }

  /**
   * Sends a message as the composer does: fires `pi-send`, then (unless cancelled) prompts, or
   * queues as steer / follow-up while a run is in progress. Re-pins the view to the bottom.
   */
  async send(
    text: string,
    options: { images?: PiSendEvent["images"]; mode?: SendMode } = {},
  ): Promise<void> {
    const running = this.#connection.snapshot?.isRunning ?? false;
    const mode = running
      ? options.mode === "prompt"
        ? "followUp"
        : (options.mode ?? "followUp")
      : "prompt";
    const images = options.images ?? [];
    this.#scroll.pin();
    if (!this.dispatchEvent(new PiSendEvent(text, images, mode))) return;
    const client = this.connection?.client;
    if (client === undefined) return;
    const queued = images.length ? { images } : {};
    try {
      if (mode === "prompt") await this.#dialogReady();
      if (mode === "steer") await client.steer(text, queued);
      else if (mode === "followUp") await client.followUp(text, queued);
      else await client.prompt(text, queued);
    } catch (error) {
      this.dispatchEvent(new PiErrorEvent("send", error));
    }
  }

  /** Aborts the run (fires `pi-abort` first). */
  async abort(): Promise<void> {
    if (!this.dispatchEvent(new PiAbortEvent())) return;
    try {
      await this.connection?.client?.abort();
    } catch (error) {
      this.dispatchEvent(new PiErrorEvent("abort", error));
    }
  }

  /**
   * Makes this viewer the one in control of the shared bridge session (the composer's "Take
   * control"); a refusal (a read-only connection) fires `pi-error` with action `take-control`.
   */
  async takeControl(): Promise<void> {
    try {
      await this.#control.take();
    } catch (error) {
      this.dispatchEvent(new PiErrorEvent("take-control", error));
    }
  }

  /** Takes the queued messages back into the composer through `clear_queue` (fires `pi-restore-queue` first). */
  async restoreQueue(): Promise<void> {
    if (!this.dispatchEvent(new PiRestoreQueueEvent())) return;
    const client = this.connection?.client;
    if (client === undefined) return;
    try {
      const removed = await client.clearQueue();
      const texts = [...(removed?.steering ?? []), ...(removed?.followUp ?? [])];
      const composer = this.composer;
      if (composer && texts.length) {
        composer.setText([...texts, composer.value].filter((t) => t !== "").join("\n\n"));
        composer.focus();
      }
    } catch (error) {
      this.dispatchEvent(new PiErrorEvent("restore-queue", error));
    }
  }

  // The client cancels a dialog at once when no handler is registered, and the built-in dialog
  // registers in its first update: let that happen before pi can ask anything.
  async #dialogReady(): Promise<void> {
    if (this.noDialogs) return;
    await this.updateComplete;
    await this.renderRoot.querySelector("pi-dialog")?.updateComplete;
  }

  // Context usage for the status bar: after each run and each session change.
  #loadStats(): void {
    const client = this.connection?.client;
    if (
      client === undefined ||
      client.signal.aborted ||
      !client.capabilities.supports("get_session_stats")
    )
      return;
    client.getSessionStats({ timeoutMs: 10_000 }).catch(() => {
      // Context usage is optional decoration: a failed refresh leaves the old figure.
    });
  }

  #notifyFor(client: PiClient | undefined): void {
    if (this.#notifier?.client === client) return;
    this.#notifier?.notifier.dispose();
    this.#notifier =
      client === undefined
        ? undefined
        : { client, notifier: new RunNotifier(client, { strings: () => this.#locale.strings }) };
  }

  // Who is in control, and the way to take it unless this connection may only watch.
  #watchBar(): unknown {
    const s = this.#locale.strings;
    const control = this.#control.control;
    const readOnly = control?.you.readOnly ?? false;
    const holder = control?.controller?.label;
    const line = readOnly
      ? s.watchingReadOnly
      : holder === undefined
        ? s.watchingNobody
        : format(s.watching, { name: holder });
    return html`<div part="watch-bar" class="watch" role="status">
      <span>${line}</span>
      ${
        readOnly
          ? nothing
          : html`<button part="take-control-button" @click=${() => void this.takeControl()}>${s.takeControl}</button>`
      }
    </div>`;
  }

  // Offered until the user has decided: browsers only ask from a click.
  #notifyButton(): unknown {
    if (!this.notify || RunNotifier.permission !== "default") return nothing;
    const s = this.#locale.strings;
    return html`<button
      part="notify-button"
      class="notify"
      title=${s.notifyEnableHint}
      @click=${async () => {
        await RunNotifier.requestPermission();
        this.requestUpdate();
      }}
    >${icons.bell}<span>${s.notifyEnable}</span></button>`;
  }
}

function widget(key: string, lines: readonly string[]): unknown {
  return html`<div part="widget" class="widget" data-key=${key}>${lines.map((line) => html`<div>${line}</div>`)}</div>`;
}

const bashMessages = new WeakMap<BashRun, BashExecutionMessage>();

// One message object per run snapshot, so an unchanged run is not rendered again.
function bashMessage(run: BashRun): BashExecutionMessage {
  let message = bashMessages.get(run);
  if (message !== undefined) return message;
  message = {
    role: "bashExecution" as const,
    command: run.command,
    output: run.output,
    exitCode: run.result?.exitCode,
    cancelled: run.result?.cancelled ?? false,
    truncated: run.result?.truncated ?? false,
    timestamp: 0,
  };
  bashMessages.set(run, message);
  return message;
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-chat": PiChat;
  }
}
