import { ContextProvider } from "@lit/context";
import type { FileSearch, PiClient, SessionModel, SessionSnapshot, Uploads } from "@pi-kit/client";
import { html, LitElement, nothing, type PropertyValues } from "lit";
import type { ComposerSubmitEvent } from "../../events/composer-submit.ts";
import { PiAbortEvent } from "../../events/pi-abort.ts";
import { PiErrorEvent } from "../../events/pi-error.ts";
import { PiRestoreQueueEvent } from "../../events/pi-restore-queue.ts";
import { PiSendEvent, type SendMode } from "../../events/pi-send.ts";
import { type PiConnection, piConnectionContext } from "../../internal/context.ts";
import {
  ConnectionController,
  refreshOnChanges,
} from "../../internal/controllers/connection-controller.ts";
import { ConnectionStatusController } from "../../internal/controllers/connection-status-controller.ts";
import { ControlController } from "../../internal/controllers/control-controller.ts";
import { LocaleController } from "../../internal/controllers/locale-controller.ts";
import { NotifyController } from "../../internal/controllers/notify-controller.ts";
import {
  SrcController,
  type SrcPhase,
  type TokenSource,
} from "../../internal/controllers/src-controller.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import { adoptPartStyles, LazyPart } from "../../internal/lazy-part.ts";
import type { PiRenderers } from "../../internal/renderers.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import { AutoScroll } from "./auto-scroll.ts";
import { BashRunFilter, bashMessage } from "./bash-runs.ts";
import { ChatOutbox } from "./chat-outbox.ts";
import { widgetsView } from "./composer-bars.ts";
import { ComposerDrafts } from "./composer-drafts.ts";
import { connectionText } from "./connection-text.ts";
import { deliveryMode } from "./delivery.ts";
import { chatStyles } from "./pi-chat.styles.ts";
import type { PiComposer } from "./pi-composer.ts";
import { pendingView, progressLabel, progressView } from "./progress-view.ts";
import { loadContextUsage, statusBar, UsageTotals } from "./status-bar.ts";
import { dialogOwners, dialogsAbove } from "./tool-dialogs.ts";
import { ToolIndex } from "./tool-index.ts";
import { TranscriptFilter } from "./transcript-filter.ts";

/** The queue and watch bars above the composer, loaded when first shown. */
const barsPart = new LazyPart(() => import("./control-bars.ts"));

/** The phase shown while the page connects the chat's client itself (`connecting`). */
const CONNECTING: SrcPhase = { status: "connecting" };

/**
 * A complete chat with the pi coding agent: the streaming transcript (markdown, thinking, tool
 * calls with live output, shell runs, summaries), a composer with queueing, steering, abort and
 * images, and a status bar. Give it a `client` (or just a `session` model for a read-only view),
 * or put it inside a `<pi-provider>`. It also hosts the client's extension dialogs (a non-modal
 * `<pi-dialog>` above the composer) and notifications (a `<pi-toasts>` column between the
 * transcript and the composer, so they never cover text); `no-dialogs` / `no-toasts` leave those
 * to elements the page places itself. A run of failed attempts of one request shows as one error
 * with the attempt count and a hint; pi's internal notices (the system prompt) are hidden unless
 * `show-internal` is set. It provides its connection to every pi element inside it (slots
 * included), like `<pi-provider>`.
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
 * @event pi-error - An action through the client failed (`connect` when `src` could not connect, `take-control` when the bridge refused); the chat also shows it as an error notification (all but `connect`, which the status bar says).
 * @event pi-token-request - With `token-from="event"`: asks the page for the bridge token. {@link PiTokenRequestEvent}
 * @slot header - Content above the status bar (for example a model picker).
 * @slot empty - Shown while the transcript is empty.
 * @csspart dialog - The extension dialog panel (from the built-in `<pi-dialog>`).
 * @csspart toasts - The column of notifications (from the built-in `<pi-toasts>`).
 * @csspart toast - One notification.
 * @csspart header - The header row (title and header slot).
 * @csspart title - The title an extension set.
 * @csspart status-bar - Connection, model, run state, usage and extension statuses.
 * @csspart model - The model's name in the status bar (a page with a model picker may hide it).
 * @csspart notify-button - "Notify me" (with `notify`, until desktop notifications are allowed or refused).
 * @csspart transcript - The scrolling log.
 * @csspart jump-button - "Jump to latest" with the number of messages that arrived, shown when there is more below.
 * @csspart pending-message - A message sent before the chat was connected, marked "Sending when connected…".
 * @csspart progress - What pi is doing until the answer starts, and while a tool runs (a polite live region).
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
 * @csspart attach-notice - Why files were not attached (not images, and no `uploads`).
 * @csspart uploads - The composer's uploaded files (with `uploads`).
 * @csspart upload - One uploaded file (`data-phase`: `uploading`, `ready` or `failed`).
 * @csspart upload-name - Its name.
 * @csspart upload-size - Its size (and how much is uploaded, while uploading).
 * @csspart upload-progress - Its progress bar, while uploading.
 * @csspart upload-status - "Ready", or why it failed.
 * @csspart upload-retry - Uploads a failed file again.
 * @csspart upload-remove - Removes it (aborting its upload).
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

    connecting: { type: Boolean },
    src: { type: String },
    tokenFrom: { type: String, attribute: "token-from" },
    token: { type: String },
    outboxKey: { type: String, attribute: "outbox-key" },
    fileSearch: { attribute: false },
    uploads: { attribute: false },
    pinned: { state: true },
  };

  /** The client that sends prompts and renders its session. */
  declare client: PiClient | undefined;
  /** Where `@` in the composer finds workspace files (a `BridgeFileSearch`); unset: `@` is text. */
  declare fileSearch: FileSearch | undefined;
  /**
   * Where files that are not images go when attached (a `BridgeUploads`): stored in the workspace
   * and named in the prompt as `@path`. Unset: the composer takes images only.
   */
  declare uploads: Uploads | undefined;
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

  /**
   * Set while the page connects this chat's `client` itself (without `src`): until the client is
   * set, the status says Connecting… instead of No client (messages sent meanwhile wait anyway).
   */
  declare connecting: boolean;
  /** A bridge session's WebSocket URL (`wss://host/sessions/name/ws`, or relative) to connect to by itself. */
  declare src: string | undefined;
  /** Where the token for `src` comes from: `attribute` (the `token` attribute; default), `fragment` or `event`. */
  declare tokenFrom: TokenSource | undefined;
  /** The bridge token for `src`. */
  declare token: string | undefined;
  /**
   * Names the conversation (say its session name): messages waiting to be sent are then kept in
   * the tab's sessionStorage under it until pi took them, and sent after a reload of the page.
   */
  declare outboxKey: string | undefined;
  /**
   * True while the view sticks to the bottom.
   * @internal
   */
  declare pinned: boolean;

  // Nested elements (the built-in dialog and toasts, the slash menu, slotted pickers) get the
  // chat's connection through context, with no wiring.
  readonly #provider = new ContextProvider(this, { context: piConnectionContext });
  // Not on connect: the status bar fills its context figure after the first run.
  readonly #refreshStats = refreshOnChanges(() => loadContextUsage(this.connection?.client), {
    initial: false,
  });
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

  /**
   * The first render in a language whose table still loads waits for it (no flash of English),
   * and the first that shows the queue or the watch bar waits for them.
   */
  protected override scheduleUpdate(): Promise<unknown> | undefined {
    return barsPart.schedule(
      () => this.#showsBars(),
      () => this.#locale.schedule(() => super.scheduleUpdate()),
    );
  }

  // Asked before willUpdate too (by scheduleUpdate): the client and its control are resolved first.
  #showsBars(): boolean {
    this.#connection.resolve();
    this.#control.watch(this.#connection.connection?.client);
    const queue = this.#connection.snapshot?.queue;
    return (
      this.#control.watching ||
      (queue !== undefined && queue.steering.length + queue.followUp.length > 0)
    );
  }
  #announcement = "";
  #wasRunning = false;
  #editorText: string | undefined;
  readonly #status = new ConnectionStatusController(this);
  readonly #src: SrcController;
  readonly #control = new ControlController(this);
  readonly #drafts = new ComposerDrafts(this, () => this.composer);
  readonly #outbox = new ChatOutbox(
    this,
    () => {
      const status = this.#status.status;
      if (status === "disconnected" || this.#control.watching) return "closed";
      return status === "connected" ? "open" : "waiting";
    },
    () => this.#dialogReady(),
  );
  readonly #notifications = new NotifyController(this, () => this.#locale.strings);

  constructor() {
    super();
    this.#src = new SrcController(this);
    // A refusal (a send pi refused, a watcher's Stop, a failed action) is shown, not only fired.
    this.addEventListener("pi-error", ({ action, error }) => {
      if (action !== "connect")
        this.renderRoot
          .querySelector("pi-toasts")
          ?.show(error instanceof Error ? error.message : String(error), "error");
    });
    this.pageSize = 60;
    this.connecting = false;
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

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("outboxKey")) this.#outbox.keepFor(this.outboxKey);
    this.#connection.resolve();
    this.#status.watch(this.#connection.connection?.client);
    this.#control.watch(this.#connection.connection?.client);
    this.#notifications.watch(
      this.notify && this.isConnected ? this.#connection.client : undefined,
    );
    const snapshot = this.#connection.snapshot;
    this.#drafts.watch(this.#connection.connection?.client, snapshot?.state?.sessionFile);
    const running = snapshot?.isRunning ?? false;
    if (running !== this.#wasRunning) {
      this.#announcement = running ? this.#locale.strings.responding : this.#locale.strings.done;
      this.#wasRunning = running;
    }
    const states = this.#internals.states;
    if (this.#live(running)) states.add("running");
    else states.delete("running");
    const shown = this.#transcript.of(snapshot?.messages ?? [], this.showInternal);
    // A message waiting to be sent is in the conversation already: no empty state over it.
    const empty =
      shown.length === 0 &&
      snapshot?.streamingMessage === undefined &&
      this.#outbox.waiting.length === 0;
    this.#scroll.count(
      shown.filter((m) => m.role !== "toolResult").length + (snapshot?.streamingMessage ? 1 : 0),
    );
    if (empty) states.add("empty");
    else states.delete("empty");
    if (this.#control.watching) states.add("watching");
    else states.delete("watching");
    const bars = barsPart.module;
    barsPart.reload(this.#showsBars(), this);
    if (bars !== undefined) adoptPartStyles(this, bars.barStyles);
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
    this.#outbox.dispatch();
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
    // A dialog a tool waits on is shown in its card, others above the composer with the transcript
    // inert under them (pi waits for the answer); a watcher sees every dialog there, unanswerable.
    const toolDialogs =
      this.noDialogs || watching ? undefined : dialogOwners(snapshot?.dialogs ?? [], executions);
    const state = this.#status.status;
    const live = this.#live(snapshot?.isRunning ?? false);
    if (streaming !== undefined) this.#tools.update(messages);
    return html`
      <div part="header" class="header">
        ${snapshot?.ui.title ? html`<h2 part="title" class="title">${snapshot.ui.title}</h2>` : nothing}
        <slot name="header"></slot>
      </div>
      ${statusBar(
        snapshot,
        connectionText(
          connection?.client,
          this.connecting && this.#src.phase.status === "idle" ? CONNECTING : this.#src.phase,
          s,
        ),
        this.#totals.of(messages),
        s,
        this.notify ? this.#notifications.button(s) : nothing,
      )}
      <div class="log-wrap" ?inert=${!watching && !this.noDialogs && dialogsAbove(snapshot?.dialogs, toolDialogs).length > 0}>
        <div part="transcript" class="log" role="log" aria-label=${s.transcript} tabindex="0">
          <div class="column">
            ${this.#internals.states.has("empty") ? html`<slot name="empty"></slot>` : nothing}
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
            ${pendingView(this.#outbox.waiting, state === "connected" && connection?.client !== undefined, s)}
            ${progressView(progressLabel(live ? snapshot : undefined, this.#outbox.delivering, s))}
          </div>
          <div class="turn-space" aria-hidden="true"></div>
        </div>
        ${this.#scroll.jumpButton(s)}
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
                .dialogs=${toolDialogs?.size ? dialogsAbove(snapshot?.dialogs, toolDialogs) : undefined}
                .strings=${this.strings}
              ></pi-dialog>`
        }
        ${widgetsView(snapshot, "aboveEditor")}
        ${barsPart.module?.queueView(snapshot?.queue, s, () => void this.restoreQueue()) ?? nothing}
        ${watching ? (barsPart.module?.watchBar(this.#control.control, s, () => void this.takeControl()) ?? nothing) : nothing}
        <pi-composer
          exportparts="composer, input, attachments, send-button, steer-button, stop-button, attach-button, slash-menu, mention-menu, mentions, mention, attach-notice, uploads, upload, upload-name, upload-size, upload-progress, upload-status, upload-retry, upload-remove"
          .strings=${s}
          .fileSearch=${this.fileSearch}
          .uploads=${this.uploads}
          ?running=${live}
          ?disabled=${state === "disconnected" || watching}
          .reason=${watching ? s.placeholderWatching : undefined}
          @composer-submit=${(e: ComposerSubmitEvent) => void this.send(e.text, { images: e.images, mode: e.mode })}
          @composer-abort=${() => void this.abort()}
          @composer-restore=${() => void this.restoreQueue()}
        ></pi-composer>
        ${widgetsView(snapshot, "belowEditor")}
      </div>
    `;
  }

  // A run is shown as going on only while the chat follows it: with its socket down nothing can
  // be stopped or steered, and what pi does meanwhile is not known (messages sent then wait).
  #live(running: boolean): boolean {
    const status = this.#status.status;
    return running && (status === "connected" || status === "none");
  }

  /**
   * Sends a message as the composer does: fires `pi-send`, then (unless cancelled) prompts, or
   * queues as steer / follow-up while a run is in progress. A prompt lands near the top of the
   * view with its answer growing below; a steer or follow-up re-pins the view to the bottom.
   * Before the chat is connected (no client yet, connecting, reconnecting) the message waits,
   * shown as "Sending when connected…", and goes once connected; a chat that cannot send (it
   * watches, or its connection closed for good) and a send that fails give the text back to the
   * composer. Resolves once pi answered, or the text was given back.
   */
  async send(
    text: string,
    options: { images?: PiSendEvent["images"]; mode?: SendMode } = {},
  ): Promise<void> {
    const mode = deliveryMode(options.mode, this.#connection.snapshot?.isRunning ?? false);
    const images = options.images ?? [];
    if (mode === "prompt") this.#scroll.turn();
    else this.#scroll.pin();
    if (!this.dispatchEvent(new PiSendEvent(text, images, mode))) return;
    await this.#outbox.send({ text, images, mode: options.mode });
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
      await this.#control.takeControl();
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
      if (texts.length) this.composer?.restore(texts);
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
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-chat": PiChat;
  }
}
