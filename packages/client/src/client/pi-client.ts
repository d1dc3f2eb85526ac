import {
  type AgentMessage,
  type BashResult,
  type CommandId,
  type CommandResponseData,
  type CommandType,
  type ExtensionUiRequest,
  encodeRecord,
  type ForkMessage,
  type ImageContent,
  type Model,
  type PromptDisposition,
  ProtocolError,
  parseInbound,
  type QueuedInputDisposition,
  type QueueMode,
  type RpcCommand,
  type RpcEvent,
  type SessionState,
  type SlashCommand,
  type StreamingBehavior,
  type ThinkingLevel,
  validateCommand,
} from "@pi-kit/protocol";
import { type DialogHandler, DialogManager } from "../extension-ui/dialog-manager.ts";
import { applyUiRequest, EMPTY_UI_STATE, type ExtensionUiState } from "../extension-ui/ui-state.ts";
import type { SessionStamp } from "../session/session-model.ts";
import { SessionModel } from "../session/session-model.ts";
import {
  isReconnectingTransport,
  type ReconnectInfo,
  type Transport,
  type TransportCloseInfo,
  type TransportFrame,
} from "../transports/transport.ts";
import { capabilitiesFor, type PiCapabilities, type PiVersionLine } from "./capabilities.ts";
import type { PiClientDiagnostic } from "./diagnostics.ts";
import { PiClientError } from "./errors.ts";
import { EventHub, type EventIterationOptions, type Unsubscribe } from "./event-hub.ts";
import { type CallOptions, PendingRequests, type ResponseRecord } from "./pending-requests.ts";
import { bounded, type RunOutcome, RunTracker, type WaitOptions } from "./run-tracker.ts";

/** Emitted by the client (on both lines) when a run is truly over: `agent_settled` or the 0.73.x fallback. */
export interface RunSettledEvent {
  readonly type: "run_settled";
  readonly aborted: boolean;
}

/**
 * Emitted after a reconnecting transport (WebSocket) reconnected and the client resynchronised:
 * the session model again matches pi, and dialogs still pending are shown.
 */
export interface SessionResyncedEvent {
  readonly type: "session_resynced";
  /** The transport's connection generation now in use (2 after the first reconnect). */
  readonly generation: number;
}

/** What made the client show another session. */
export type SessionChangeReason = "new_session" | "switch_session" | "fork" | "clone" | "reconnect";

/** The session the client shows changed: a session command, a reconnect, or a resume. */
export interface SessionChangedEvent {
  readonly type: "session_changed";
  /** What changed it. */
  readonly reason: SessionChangeReason;
  /** pi's session id now (from get_state). */
  readonly sessionId: string | undefined;
  /** pi's session file now, when pi persists sessions. */
  readonly sessionFile: string | undefined;
}

/**
 * Everything a client delivers to listeners: pi's events, extension-UI requests, `run_settled`,
 * `session_resynced` and `session_changed`.
 */
export type ClientEvent =
  | RpcEvent
  | ExtensionUiRequest
  | RunSettledEvent
  | SessionResyncedEvent
  | SessionChangedEvent;

/** The event of type `K`. */
export type ClientEventOf<K extends ClientEvent["type"]> = Extract<
  ClientEvent,
  { readonly type: K }
>;

/** Options for {@link PiClient}. */
export interface PiClientOptions {
  /** Skip version detection: the pi line or full capabilities. Without it `connect` probes. */
  capabilities?: PiCapabilities | PiVersionLine;
  /** Timeout for quick commands in ms (30 000 by default); long ones have none unless given per call. */
  defaultTimeoutMs?: number;
  /** Handles extension dialogs; without one every dialog is cancelled at once. */
  dialogHandler?: DialogHandler;
}

/** Options for {@link PiClient.connect}. */
export interface ConnectOptions extends PiClientOptions {
  /** Cancels the handshake. */
  signal?: AbortSignal;
  /** Milliseconds for the handshake (each of its two round trips); 60 000 by default (0.73.x starts in ~1 s). */
  handshakeTimeoutMs?: number;
  /**
   * Load the transcript with `session.resync()` before resolving. Defaults to true for a
   * reconnecting transport (a bridge session may predate this client), false otherwise.
   */
  resync?: boolean;
}

/** Options for `prompt`. */
export interface PromptOptions extends CallOptions {
  images?: readonly ImageContent[];
  /** Required while the agent streams: queue as steering or follow-up. */
  streamingBehavior?: StreamingBehavior;
}

/** Options for `steer` and `followUp`. */
export interface QueueOptions extends CallOptions {
  images?: readonly ImageContent[];
}

/** Options for `bash`. */
export interface BashOptions extends CallOptions {
  /** Keep the output out of the model's context (ignored by 0.73.x). */
  excludeFromContext?: boolean;
  /** Receives this call's streamed output (1.x; 0.73.x streams nothing). */
  onOutput?: (delta: string) => void;
}

/** Options for `promptAndWait`: the prompt's options plus a bound on the whole wait. */
export interface PromptAndWaitOptions extends PromptOptions {
  /** Bounds the wait for the run to settle (the prompt call itself uses `timeoutMs`). */
  settleTimeoutMs?: number;
}

/** How a prompt went, once its run (if any) is over. */
export interface RunResult extends RunOutcome {
  /** pi's disposition; on 0.73.x, which gives none, inferred (`started` or `handled`). */
  readonly disposition: PromptDisposition;
}

/** Extension-UI access: dialogs and retained state. */
export interface ClientUi {
  /** Registers the dialog handler (replacing any); returns a function that removes it. */
  setDialogHandler(handler: DialogHandler | undefined): () => void;
  /** Answers an open dialog by id; `undefined` cancels. False when it is no longer open. */
  answer(id: string, reply: string | boolean | undefined): boolean;
  /** Cancels an open dialog by id. */
  cancel(id: string): boolean;
  /** The retained statuses, widgets, title and editor text. */
  readonly state: ExtensionUiState;
}

// These may legitimately run for minutes: prompt waits for extension-command dialogs, abort for the
// unwind, compact and bash for their work, and the session switches for `session_before_*` hooks
// that can open dialogs.
const LONG_RUNNING = new Set<string>([
  "prompt",
  "compact",
  "bash",
  "abort",
  "new_session",
  "switch_session",
  "fork",
  "clone",
]);
// On 0.73.x these abandon a run mid-stream without any end event; a `get_state` afterwards settles it.
const ABANDONS_RUN_073 = new Set<string>([
  "new_session",
  "switch_session",
  "compact",
  "fork",
  "clone",
]);
// Commands that put pi on another session; `session_changed` follows each that was not cancelled.
const CHANGES_SESSION = new Set<string>(["new_session", "switch_session", "fork", "clone"]);
const DEFAULT_TIMEOUT_MS = 30_000;
// A closed transport may still hold unread frames (the last responses); give the reader this long.
const CLOSE_GRACE_MS = 50;

let clientCounter = 0;

/**
 * A typed client for pi's RPC mode over any {@link Transport}: one method per command, id
 * correlation with per-call signals and timeouts, typed events, run completion on 0.73.x and 1.x,
 * extension dialogs and an observable session model. The client owns the transport.
 * @example
 * const client = await PiClient.connect(await spawnPi(), { dialogHandler: async (d) => (d.method === "confirm" ? true : undefined) });
 * client.on("message_update", (e) => render(client.session.getSnapshot().streamingMessage));
 * const { disposition } = await client.promptAndWait("Hello");
 * await client.close();
 */
export class PiClient {
  readonly #transport: Transport;
  readonly #writer: WritableStreamDefaultWriter<string>;
  readonly #hub = new EventHub<ClientEvent>();
  readonly #pending: PendingRequests;
  readonly #tracker: RunTracker;
  readonly #dialogs: DialogManager;
  readonly #session: SessionModel;
  readonly #bashOutput = new Map<string, (delta: string) => void>();
  readonly #abort = new AbortController();
  readonly #defaultTimeoutMs: number;
  readonly #idPrefix =
    `pk${(++clientCounter).toString(36)}${Math.random().toString(36).slice(2, 6)}-`;
  #capabilities: PiCapabilities;
  #uiState: ExtensionUiState = EMPTY_UI_STATE;
  #nextId = 0;
  #closeInfo: TransportCloseInfo | undefined;
  #pump: Promise<void>;
  // The model's stamp when each response was read, for resync (see SessionStamp).
  readonly #stamps = new WeakMap<object, SessionStamp>();

  /** Settles with why the transport closed; never rejects. */
  readonly closed: Promise<TransportCloseInfo>;

  /** Connects: waits for pi to answer `get_state` (readiness, no sleeps) and detects the pi line. */
  static async connect(transport: Transport, options: ConnectOptions = {}): Promise<PiClient> {
    const client = new PiClient(transport, options);
    const call: CallOptions = { timeoutMs: options.handshakeTimeoutMs ?? 60_000 };
    if (options.signal !== undefined) call.signal = options.signal;
    try {
      await client.getState(call);
      if (options.capabilities === undefined) await client.#detect(call);
      if (options.resync ?? isReconnectingTransport(transport)) await client.session.resync();
    } catch (error) {
      await client.close();
      throw error;
    }
    return client;
  }

  /** Wraps a transport and starts reading it. Prefer {@link PiClient.connect}, which also handshakes. */
  constructor(transport: Transport, options: PiClientOptions = {}) {
    this.#transport = transport;
    this.#defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    const given = options.capabilities;
    this.#capabilities =
      typeof given === "string" ? capabilitiesFor(given) : (given ?? capabilitiesFor("1"));
    const report = this.#hub.report;
    this.#pending = new PendingRequests(report);
    const client = this;
    this.#session = new SessionModel(
      {
        getState: () => this.getState(),
        getMessages: async () => {
          const response = await this.#call({ type: "get_messages" }, {});
          const data = response.data as CommandResponseData["get_messages"];
          return { messages: data.messages, at: this.#stamps.get(response) };
        },
        get getEntries() {
          if (!client.#capabilities.supports("get_entries")) return undefined;
          return async (since?: string) => {
            const response = await client.#call({ type: "get_entries", ...opt({ since }) }, {});
            const data = response.data as CommandResponseData["get_entries"];
            return { ...data, at: client.#stamps.get(response) };
          };
        },
      },
      report,
    );
    this.#tracker = new RunTracker({
      versionLine: () => this.#capabilities.versionLine,
      barrier: () => this.getState(),
      settled: (outcome) => {
        this.#dialogs.cancelStale();
        this.#session.runSettled();
        this.#hub.emit({ type: "run_settled", aborted: outcome.aborted });
      },
      unannounced: () =>
        report({
          kind: "unannounced_run_end",
          message:
            "pi reported idle while a run was open and never announced its end (a 0.73.x compact or new_session during a stream, or events lost in a reconnect); settled it as aborted",
        }),
    });
    this.#dialogs = new DialogManager(
      {
        respond: (response) => void this.#write(response).catch(() => {}),
        report,
        changed: (dialogs) => this.#session.setDialogs(dialogs),
      },
      options.dialogHandler,
    );
    this.#writer = transport.writable.getWriter();
    if (isReconnectingTransport(transport)) {
      transport.onReconnect((info) => this.#reconnected(info));
    }
    this.#pump = this.#read();
    this.closed = this.#watchClose();
  }

  /** What the connected pi supports; detected by `connect`, otherwise assumed 1.x. */
  get capabilities(): PiCapabilities {
    return this.#capabilities;
  }

  /** Aborts when the transport has closed. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /**
   * The transport the client owns: read it, do not read from or write to it. A UI shows the
   * connection state of a reconnecting one (the WebSocket transport's `state` and `statechange`).
   */
  get transport(): Transport {
    return this.#transport;
  }

  /** The observable session state a UI renders. */
  get session(): SessionModel {
    return this.#session;
  }

  /** True while a run is in progress (from `agent_start` until it settles). */
  get isRunning(): boolean {
    return this.#tracker.running;
  }

  /** Extension UI: the dialog handler, open dialogs, and retained statuses, widgets and title. */
  get ui(): ClientUi {
    const dialogs = this.#dialogs;
    const client = this;
    return {
      setDialogHandler: (handler) => dialogs.setHandler(handler),
      answer: (id, reply) => dialogs.answer(id, reply),
      cancel: (id) => dialogs.cancel(id),
      get state() {
        return client.#uiState;
      },
    };
  }

  /** Subscribes to one event type, or to `"diagnostic"` for reported problems. */
  on<K extends ClientEvent["type"]>(
    type: K,
    listener: (event: ClientEventOf<K>) => void,
  ): Unsubscribe;
  on(type: "diagnostic", listener: (diagnostic: PiClientDiagnostic) => void): Unsubscribe;
  on(type: string, listener: (value: never) => void): Unsubscribe {
    if (type === "diagnostic")
      return this.#hub.onDiagnostic(listener as (d: PiClientDiagnostic) => void);
    return this.#hub.on(type as ClientEvent["type"], listener as (e: ClientEvent) => void);
  }

  /** Subscribes to every event (not diagnostics). */
  onEvent(listener: (event: ClientEvent) => void): Unsubscribe {
    return this.#hub.onAny(listener);
  }

  /**
   * Iterates over events from now on until the client closes.
   * @example
   * for await (const event of client.events({ signal })) if (event.type === "agent_settled") break;
   */
  events(options?: EventIterationOptions): AsyncIterableIterator<ClientEvent> {
    return this.#hub.iterate(options);
  }

  /** Sends any command and resolves with its response `data`, typed by command. */
  async request<C extends CommandType>(
    command: RpcCommand & { readonly type: C },
    options: CallOptions = {},
  ): Promise<CommandResponseData[C]> {
    const response = await this.#call(command, options);
    return response.data as CommandResponseData[C];
  }

  /** Sends a raw command (validated; an id is added if missing) and resolves with pi's whole success response. */
  send(command: RpcCommand, options: CallOptions = {}): Promise<ResponseRecord> {
    return this.#call(command, options);
  }

  /** Sends a prompt; resolves with pi's disposition (`undefined` on 0.73.x, which gives none). */
  async prompt(
    message: string,
    options: PromptOptions = {},
  ): Promise<PromptDisposition | undefined> {
    const { images, streamingBehavior, ...call } = options;
    return (
      await this.request({ type: "prompt", message, ...opt({ images, streamingBehavior }) }, call)
    )?.disposition;
  }

  /** Queues a steering message (delivered after the current tool calls). */
  async steer(
    message: string,
    options: QueueOptions = {},
  ): Promise<QueuedInputDisposition | undefined> {
    const { images, ...call } = options;
    return (await this.request({ type: "steer", message, ...opt({ images }) }, call))?.disposition;
  }

  /** Queues a follow-up message (delivered when the agent would stop). */
  async followUp(
    message: string,
    options: QueueOptions = {},
  ): Promise<QueuedInputDisposition | undefined> {
    const { images, ...call } = options;
    return (await this.request({ type: "follow_up", message, ...opt({ images }) }, call))
      ?.disposition;
  }

  /** Aborts the run and cancels every open dialog (as Esc does); resolves after pi has unwound. */
  async abort(options?: CallOptions): Promise<void> {
    this.#dialogs.cancelAll();
    await this.request({ type: "abort" }, options);
  }

  /** Empties both queues; returns what was removed. 1.x only. */
  clearQueue(options?: CallOptions): Promise<CommandResponseData["clear_queue"]> {
    return this.request({ type: "clear_queue" }, options);
  }

  /** Starts a fresh session. */
  newSession(
    parentSession?: string,
    options?: CallOptions,
  ): Promise<CommandResponseData["new_session"]> {
    return this.request({ type: "new_session", ...opt({ parentSession }) }, options);
  }

  /**
   * Reads model, modes, flags and counts (and records them in the session model). An idle answer
   * also settles a run pi never announced the end of (see `RunOutcome.inferred`).
   */
  async getState(options?: CallOptions): Promise<SessionState> {
    const epoch = this.#tracker.epoch;
    const state = await this.request({ type: "get_state" }, options);
    this.#session.noteState(state);
    this.#tracker.noteState(state, epoch);
    return state;
  }

  /** Reads every message of the session. */
  async getMessages(options?: CallOptions): Promise<readonly AgentMessage[]> {
    return (await this.request({ type: "get_messages" }, options)).messages;
  }

  /** Switches model; resolves with the full model. */
  setModel(provider: string, modelId: string, options?: CallOptions): Promise<Model> {
    return this.request({ type: "set_model", provider, modelId }, options);
  }

  /** Cycles to the next model; `null` when there is only one. */
  cycleModel(options?: CallOptions): Promise<CommandResponseData["cycle_model"]> {
    return this.request({ type: "cycle_model" }, options);
  }

  /** Lists the available models (full models). */
  async getAvailableModels(options?: CallOptions): Promise<readonly Model[]> {
    return (await this.request({ type: "get_available_models" }, options)).models;
  }

  /** Sets the thinking level (pi clamps it to the model). */
  async setThinkingLevel(level: ThinkingLevel, options?: CallOptions): Promise<void> {
    await this.request({ type: "set_thinking_level", level }, options);
  }

  /** Cycles the thinking level; `null` for a model without reasoning. */
  cycleThinkingLevel(options?: CallOptions): Promise<CommandResponseData["cycle_thinking_level"]> {
    return this.request({ type: "cycle_thinking_level" }, options);
  }

  /** Lists the current model's thinking levels. 1.x only. */
  async getAvailableThinkingLevels(options?: CallOptions): Promise<readonly ThinkingLevel[]> {
    return (await this.request({ type: "get_available_thinking_levels" }, options)).levels;
  }

  /** Sets how steering messages drain (persisted globally by pi). */
  async setSteeringMode(mode: QueueMode, options?: CallOptions): Promise<void> {
    await this.request({ type: "set_steering_mode", mode }, options);
  }

  /** Sets how follow-up messages drain (persisted globally by pi). */
  async setFollowUpMode(mode: QueueMode, options?: CallOptions): Promise<void> {
    await this.request({ type: "set_follow_up_mode", mode }, options);
  }

  /** Compacts the history now. */
  compact(
    customInstructions?: string,
    options?: CallOptions,
  ): Promise<CommandResponseData["compact"]> {
    return this.request({ type: "compact", ...opt({ customInstructions }) }, options);
  }

  /** Turns automatic compaction on or off (persisted globally by pi). */
  async setAutoCompaction(enabled: boolean, options?: CallOptions): Promise<void> {
    await this.request({ type: "set_auto_compaction", enabled }, options);
  }

  /** Turns automatic retry on or off (persisted globally by pi). */
  async setAutoRetry(enabled: boolean, options?: CallOptions): Promise<void> {
    await this.request({ type: "set_auto_retry", enabled }, options);
  }

  /** Stops a pending automatic retry. */
  async abortRetry(options?: CallOptions): Promise<void> {
    await this.request({ type: "abort_retry" }, options);
  }

  /** Runs a shell command in pi's cwd; `onOutput` gets this call's streamed output (1.x). */
  async bash(command: string, options: BashOptions = {}): Promise<BashResult> {
    const { excludeFromContext, onOutput, ...call } = options;
    const id = this.#newId();
    if (onOutput !== undefined) this.#bashOutput.set(id, onOutput);
    this.#session.bashStarted(id, command);
    let result: BashResult | undefined;
    try {
      result = await this.request(
        { type: "bash", id, command, ...opt({ excludeFromContext }) },
        call,
      );
      return result;
    } finally {
      this.#bashOutput.delete(id);
      this.#session.bashFinished(id, result);
    }
  }

  /** Cancels the running `bash` command. */
  async abortBash(options?: CallOptions): Promise<void> {
    await this.request({ type: "abort_bash" }, options);
  }

  /** Reads token, cost and context-usage totals (and records the context usage in the session model). */
  async getSessionStats(options?: CallOptions): Promise<CommandResponseData["get_session_stats"]> {
    const stats = await this.request({ type: "get_session_stats" }, options);
    this.#session.noteContextUsage(stats.contextUsage);
    return stats;
  }

  /** Writes the session as HTML; a default path is relative to pi's cwd. */
  exportHtml(
    outputPath?: string,
    options?: CallOptions,
  ): Promise<CommandResponseData["export_html"]> {
    return this.request({ type: "export_html", ...opt({ outputPath }) }, options);
  }

  /** Opens another session file. */
  switchSession(
    sessionPath: string,
    options?: CallOptions,
  ): Promise<CommandResponseData["switch_session"]> {
    return this.request({ type: "switch_session", sessionPath }, options);
  }

  /** Starts a new branch at a user message; returns its text for the editor. */
  fork(entryId: string, options?: CallOptions): Promise<CommandResponseData["fork"]> {
    return this.request({ type: "fork", entryId }, options);
  }

  /** Copies the current branch into a new session. */
  clone(options?: CallOptions): Promise<CommandResponseData["clone"]> {
    return this.request({ type: "clone" }, options);
  }

  /** Lists the user messages `fork` can start from. */
  async getForkMessages(options?: CallOptions): Promise<readonly ForkMessage[]> {
    return (await this.request({ type: "get_fork_messages" }, options)).messages;
  }

  /** Reads session entries, optionally only those after `since`. 1.x only. */
  getEntries(since?: string, options?: CallOptions): Promise<CommandResponseData["get_entries"]> {
    return this.request({ type: "get_entries", ...opt({ since }) }, options);
  }

  /** Reads the entry tree. 1.x only. */
  getTree(options?: CallOptions): Promise<CommandResponseData["get_tree"]> {
    return this.request({ type: "get_tree" }, options);
  }

  /** Reads the last assistant text; `null` when there is none (pi then sends `{}`). */
  async getLastAssistantText(options?: CallOptions): Promise<string | null> {
    return (await this.request({ type: "get_last_assistant_text" }, options)).text ?? null;
  }

  /** Names the session. */
  async setSessionName(name: string, options?: CallOptions): Promise<void> {
    await this.request({ type: "set_session_name", name }, options);
  }

  /** Lists slash commands. */
  async getCommands(options?: CallOptions): Promise<readonly SlashCommand[]> {
    return (await this.request({ type: "get_commands" }, options)).commands;
  }

  /**
   * Prompts and resolves when the run is truly over, or at once when a command handled the prompt.
   * The wait starts before the prompt is sent, so a fast finish cannot be missed.
   */
  async promptAndWait(message: string, options: PromptAndWaitOptions = {}): Promise<RunResult> {
    const { settleTimeoutMs, ...promptOptions } = options;
    const watch = this.#tracker.watch();
    const startsBefore = this.#tracker.starts;
    let disposition: PromptDisposition | undefined;
    try {
      disposition = await this.prompt(message, promptOptions);
      if (disposition === undefined)
        disposition = await this.#inferDisposition(startsBefore, promptOptions);
    } catch (error) {
      watch.cancel();
      throw error;
    }
    if (disposition === "handled") {
      watch.cancel();
      return { disposition, aborted: false };
    }
    const wait: WaitOptions = {};
    if (promptOptions.signal !== undefined) wait.signal = promptOptions.signal;
    if (settleTimeoutMs !== undefined) wait.timeoutMs = settleTimeoutMs;
    const outcome = await bounded(watch, wait, "promptAndWait");
    return { disposition, ...outcome };
  }

  /** Resolves when the current run is over (at once when none is running). */
  waitForSettled(options?: WaitOptions): Promise<RunOutcome> {
    return this.#tracker.waitForSettled(options);
  }

  /** Closes the transport (pi exits gracefully); pending calls reject with `transport_closed`. */
  async close(): Promise<TransportCloseInfo> {
    const info = await this.#transport.close();
    this.#shutdown(info);
    return info;
  }

  // 0.73.x answers a prompt without a disposition. A `get_state` barrier tells a run (pi is
  // streaming, or a run began since the prompt was sent) from a prompt a command handled.
  async #inferDisposition(startsBefore: number, options: CallOptions): Promise<PromptDisposition> {
    if (this.#tracker.starts > startsBefore || this.#tracker.running) return "started";
    const call: CallOptions = {};
    if (options.signal !== undefined) call.signal = options.signal;
    const state = await this.getState(call);
    return state.isStreaming || this.#tracker.starts > startsBefore ? "started" : "handled";
  }

  async #detect(options: CallOptions): Promise<void> {
    try {
      await this.#call({ type: "get_available_thinking_levels" }, options, true);
      this.#capabilities = capabilitiesFor("1", true);
    } catch (error) {
      if (
        !(error instanceof PiClientError) ||
        error.code !== "rpc_failed" ||
        !/Unknown command/.test(error.message)
      ) {
        throw error;
      }
      this.#capabilities = capabilitiesFor("0.73", true);
    }
  }

  #newId(): string {
    return `${this.#idPrefix}${++this.#nextId}`;
  }

  async #call(command: RpcCommand, options: CallOptions, probing = false): Promise<ResponseRecord> {
    const type = command.type;
    if (this.#closeInfo !== undefined) throw PiClientError.transportClosed(this.#closeInfo, type);
    if (!probing && !this.#capabilities.supports(type)) {
      throw PiClientError.unsupported(type, this.#capabilities.versionLine);
    }
    const invalid = validateCommand(command);
    if (invalid !== undefined) throw PiClientError.invalidCommand(String(type), invalid);
    const id: CommandId = command.id ?? this.#newId();
    const timeoutMs =
      options.timeoutMs ?? (LONG_RUNNING.has(type) ? undefined : this.#defaultTimeoutMs);
    const registration: CallOptions = {};
    if (options.signal !== undefined) registration.signal = options.signal;
    if (timeoutMs !== undefined) registration.timeoutMs = timeoutMs;
    const response = this.#pending.register(String(id), type, registration);
    const transport = this.#transport;
    this.#write({ ...command, id }).then(
      () => {
        // Read at once: a reconnect cannot happen between the send and this continuation.
        if (isReconnectingTransport(transport))
          this.#pending.markSent(String(id), transport.generation);
      },
      (error: unknown) => {
        this.#pending.fail(
          String(id),
          error instanceof ProtocolError
            ? PiClientError.invalidCommand(type, error)
            : PiClientError.transportClosed(this.#closeInfo ?? { reason: "error", error }, type),
        );
      },
    );
    const answer = await response;
    if (!answer.success) throw PiClientError.rpcFailed(type, answer.error ?? "(no error text)");
    if (CHANGES_SESSION.has(type) && !cancelledByHook(answer.data)) {
      await this.#sessionChanged(type as SessionChangeReason);
      return answer;
    }
    if (
      ABANDONS_RUN_073.has(type) &&
      this.#tracker.running &&
      this.#capabilities.versionLine === "0.73"
    ) {
      void this.getState().catch(() => {
        // Best effort: the next get_state settles the run as well.
      });
    }
    return answer;
  }

  // pi is on another session: load it in full before anyone hears of the change, so a listener
  // (a tree, a picker, a transcript) reading `client.session` sees the new one.
  async #sessionChanged(reason: SessionChangeReason): Promise<void> {
    let state: SessionState | undefined;
    try {
      state = (await this.#session.reload()).state;
    } catch (error) {
      throw PiClientError.during(reason, "loading the new session", error);
    }
    this.#emitSessionChanged(reason, state);
  }

  #emitSessionChanged(reason: SessionChangeReason, state: SessionState | undefined): void {
    this.#hub.emit({
      type: "session_changed",
      reason,
      sessionId: state?.sessionId,
      sessionFile: state?.sessionFile,
    });
  }

  // A reconnecting transport replaced its connection: answers and events of the gap are lost.
  // Calls sent on the old connection fail as `connection_lost` (pi may or may not have run them;
  // re-sending blindly could run a prompt twice), then the session is reloaded, the run state is
  // reconciled by the resync's `get_state`, and dialogs pi no longer waits for are closed.
  #reconnected(info: ReconnectInfo): void {
    this.#pending.failSentBefore(info.generation, (command) =>
      PiClientError.connectionLost(command),
    );
    this.#tracker.reconnected();
    this.#session.connectionLost();
    this.#dialogs.reattaching();
    this.#session.resync().then(
      (snapshot) => {
        this.#dialogs.reattached();
        this.#hub.emit({ type: "session_resynced", generation: info.generation });
        this.#emitSessionChanged("reconnect", snapshot.state);
      },
      (error: unknown) => {
        if (this.#closeInfo !== undefined) return;
        this.#hub.report({
          kind: "resync_failed",
          message: `resynchronising after the reconnect failed: ${String(error)}`,
          error,
        });
      },
    );
  }

  async #write(record: object): Promise<void> {
    // encodeRecord refuses what pi cannot take (a top-level null crashes pi); it throws synchronously.
    const line = encodeRecord(record);
    try {
      await this.#writer.write(line);
    } catch (error) {
      this.#hub.report({
        kind: "write_error",
        message: `could not write to pi: ${String(error)}`,
        error,
        record,
      });
      throw error;
    }
  }

  async #read(): Promise<void> {
    const reader = this.#transport.readable.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        for (const frame of value) this.#frame(frame);
      }
    } catch (error) {
      this.#hub.report({
        kind: "protocol_error",
        message: `reading from pi failed: ${String(error)}`,
        error,
      });
    } finally {
      reader.releaseLock();
    }
  }

  async #watchClose(): Promise<TransportCloseInfo> {
    // Whichever comes first: pi's exit or the end of its output. Each waits briefly for the other so
    // buffered responses are delivered and the exit code is known, well within 100 ms.
    const info = await Promise.race([
      this.#transport.closed.then(async (closeInfo) => {
        await Promise.race([this.#pump, delay(CLOSE_GRACE_MS)]);
        return closeInfo;
      }),
      this.#pump.then(() =>
        Promise.race([
          this.#transport.closed,
          delay(CLOSE_GRACE_MS).then((): TransportCloseInfo => ({ reason: "eof" })),
        ]),
      ),
    ]);
    this.#shutdown(info);
    return info;
  }

  #shutdown(info: TransportCloseInfo): void {
    if (this.#closeInfo !== undefined) return;
    this.#closeInfo = info;
    const error = (command: string): PiClientError => PiClientError.transportClosed(info, command);
    this.#pending.close(error);
    this.#tracker.close(PiClientError.transportClosed(info));
    this.#dialogs.dispose();
    this.#hub.close();
    this.#abort.abort(PiClientError.transportClosed(info));
  }

  #frame(frame: TransportFrame): void {
    if (typeof frame !== "string") {
      this.#hub.report({
        kind: "protocol_error",
        message: frame.message,
        error: frame,
        record: frame.raw,
      });
      return;
    }
    const inbound = parseInbound(frame);
    switch (inbound.kind) {
      case "response":
        this.#stamps.set(inbound.response, this.#session.stamp());
        this.#pending.deliver(inbound.response);
        return;
      case "event":
        this.#event(inbound.event);
        return;
      case "ui_request":
        this.#uiRequest(inbound.request);
        return;
      case "unknown":
        // A success response to a command type this package does not know (a raw send to a newer pi).
        if (inbound.value.type === "response" && typeof inbound.value.success === "boolean") {
          this.#pending.deliver(inbound.value as unknown as ResponseRecord);
          return;
        }
        this.#hub.report({
          kind: "unknown_record",
          message: `ignored a record of unknown type "${inbound.value.type}"`,
          record: inbound.value,
        });
        return;
      case "error":
        this.#hub.report({
          kind: "protocol_error",
          message: inbound.error.message,
          error: inbound.error,
          record: frame,
        });
        return;
    }
  }

  #event(event: RpcEvent): void {
    this.#session.handleEvent(event);
    if (event.type === "bash_execution_update" && event.id !== undefined) {
      const listener = this.#bashOutput.get(String(event.id));
      try {
        listener?.(event.delta);
      } catch (error) {
        this.#hub.report({
          kind: "listener_error",
          message: `a bash onOutput callback threw: ${String(error)}`,
          error,
        });
      }
    }
    this.#hub.emit(event);
    this.#tracker.handle(event);
  }

  #uiRequest(request: ExtensionUiRequest): void {
    switch (request.method) {
      case "select":
      case "confirm":
      case "input":
      case "editor":
        this.#dialogs.open(request, this.#tracker.running);
        break;
      default:
        this.#uiState = applyUiRequest(this.#uiState, request);
        this.#session.setUi(this.#uiState);
    }
    this.#hub.emit(request);
  }
}

/** A session command a `session_before_*` extension hook vetoed answers `{cancelled: true}`. */
function cancelledByHook(data: unknown): boolean {
  return (
    typeof data === "object" &&
    data !== null &&
    (data as { cancelled?: unknown }).cancelled === true
  );
}

/** Drops `undefined` fields so optional command fields are absent, not `undefined`. */
function opt<T extends Record<string, unknown>>(
  fields: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[key] = value;
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
