import { ContextProvider } from "@lit/context";
import type { FileSearch, PiClient, SessionModel, SessionSnapshot, Uploads } from "@pi-kit/client";
import { html, LitElement, nothing, type PropertyValues } from "lit";
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
import { SrcController, type TokenSource } from "../../internal/controllers/src-controller.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import type { PiRenderers } from "../../internal/renderers.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import { AutoScroll } from "./auto-scroll.ts";
import { barsPart, chatBottom, loadBars, showErrors, showsBars } from "./chat-bottom.ts";
import { ChatOutbox, outboxLink } from "./chat-outbox.ts";
import { ChatStates } from "./chat-states.ts";
import { ComposerDrafts } from "./composer-drafts.ts";
import { connectionText } from "./connection-text.ts";
import { deliveryMode } from "./delivery.ts";
import { chatStyles } from "./pi-chat.styles.ts";
import type { PiComposer } from "./pi-composer.ts";
import { chatTop, loadContextUsage, UsageTotals } from "./status-bar.ts";
import { dialogPlaces } from "./tool-dialogs.ts";
import { ChatTranscript } from "./transcript-view.ts";

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
  readonly #states = new ChatStates(this.attachInternals());
  readonly #totals = new UsageTotals();
  readonly #transcript = new ChatTranscript();
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
    return showsBars(this.#connection.snapshot?.queue, this.#control.watching);
  }
  readonly #status = new ConnectionStatusController(this);
  readonly #src: SrcController;
  readonly #control = new ControlController(this);
  readonly #drafts = new ComposerDrafts(this, () => this.composer);
  readonly #outbox = new ChatOutbox(
    this,
    () => outboxLink(this.#status.status, this.#control.watching),
    () => this.#dialogReady(),
  );
  readonly #notifications = new NotifyController(this, () => this.#locale.strings);

  constructor() {
    super();
    this.#src = new SrcController(this);
    showErrors(this);
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
    const shown = this.#transcript.shown(snapshot, this.showInternal);
    this.#scroll.count(this.#transcript.count(shown, snapshot));
    const state = {
      running: this.#live(running),
      empty: this.#transcript.empty(shown, snapshot, this.#outbox.waiting),
      watching: this.#control.watching,
    };
    this.#states.set(state, running, this.#locale.strings);
    loadBars(this, this.#showsBars());
  }

  protected override updated(): void {
    this.#drafts.follow(this.#connection.snapshot?.ui.editorText);
    this.#scroll.afterRender();
    this.#outbox.dispatch();
  }

  protected override render(): unknown {
    const s = this.#locale.strings;
    const snapshot = this.#connection.snapshot;
    const connection = this.#connection.connection;
    const watching = this.#control.watching;
    // A watcher sees every dialog above the composer, unanswerable.
    const { inCards, above } = dialogPlaces(snapshot, !this.noDialogs && !watching);
    const state = this.#status.status;
    const live = this.#live(snapshot?.isRunning ?? false);
    return html`
      ${chatTop(
        snapshot,
        connectionText(connection?.client, this.#src.phase, this.connecting, s),
        this.#totals.of(snapshot?.messages ?? []),
        s,
        this.notify ? this.#notifications.button(s) : nothing,
      )}
      ${this.#transcript.render(this, {
        snapshot,
        shown: this.#transcript.shown(snapshot, this.showInternal),
        empty: this.#states.empty,
        strings: s,
        toolDialogs: inCards,
        actions: state === "connected" && !watching && !(snapshot?.isRunning ?? false),
        inert: !watching && !this.noDialogs && above.length > 0,
        outbox: this.#outbox,
        connected: state === "connected" && connection?.client !== undefined,
        live,
        jump: this.#scroll.jumpButton(s),
      })}
      <div class="sr-only" role="status" aria-live="polite">${this.#states.announcement}</div>
      ${chatBottom(this, {
        snapshot,
        connection,
        strings: s,
        control: this.#control.control,
        watching,
        dialogs: inCards?.size ? above : undefined,
        live,
        disabled: state === "disconnected" || watching,
      })}
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
    if (this.dispatchEvent(new PiAbortEvent()))
      await this.#attempt("abort", async () => this.connection?.client?.abort());
  }

  /**
   * Makes this viewer the one in control of the shared bridge session (the composer's "Take
   * control"); a refusal (a read-only connection) fires `pi-error` with action `take-control`.
   */
  async takeControl(): Promise<void> {
    await this.#attempt("take-control", () => this.#control.takeControl());
  }

  /** Takes the queued messages back into the composer through `clear_queue` (fires `pi-restore-queue` first). */
  async restoreQueue(): Promise<void> {
    if (!this.dispatchEvent(new PiRestoreQueueEvent())) return;
    const client = this.connection?.client;
    if (client === undefined) return;
    await this.#attempt("restore-queue", async () => {
      const removed = await client.clearQueue();
      const texts = [...(removed?.steering ?? []), ...(removed?.followUp ?? [])];
      if (texts.length) this.composer?.restore(texts);
    });
  }

  // An action through the client that fails fires pi-error (shown as an error notification).
  async #attempt(action: string, run: () => Promise<unknown>): Promise<void> {
    try {
      await run();
    } catch (error) {
      this.dispatchEvent(new PiErrorEvent(action, error));
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
