import {
  type AgentMessage,
  type BashResult,
  type CommandId,
  type CommandResponseData,
  type CommandType,
  type ExtensionUiRequest,
  encodeRecord,
  type ForkMessage,
  isCommandType,
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
  type ThinkingLevel,
  validateCommand,
} from "@pi-kit/protocol";
import { DialogManager } from "../extension-ui/dialog-manager.ts";
import { applyUiRequest, EMPTY_UI_STATE, type ExtensionUiState } from "../extension-ui/ui-state.ts";
import type { SessionStamp } from "../session/session-model.ts";
import { SessionModel } from "../session/session-model.ts";
import {
  isReconnectingTransport,
  isSharedTransport,
  type ReconnectInfo,
  type Transport,
  type TransportCloseInfo,
  type TransportFrame,
} from "../transports/transport.ts";
import {
  CapabilityTracker,
  COMMANDS_MISSING_IN_073,
  capabilitiesFor,
  type PiCapabilities,
} from "./capabilities.ts";
import type { ClientEvent, ClientEventOf, SessionChangeReason } from "./client-events.ts";
import type {
  BashOptions,
  ClientUi,
  ConnectOptions,
  PiClientOptions,
  PromptAndWaitOptions,
  PromptOptions,
  QueueOptions,
  RunResult,
} from "./client-options.ts";
import {
  ABANDONS_RUN,
  CHANGES_SESSION,
  dispositionOf,
  LONG_RUNNING,
  OPENS_DIALOGS,
  opt,
  throwIfCancelled,
  typeOf,
  vetoedByHook,
} from "./commands.ts";
import type { PiClientDiagnostic } from "./diagnostics.ts";
import { PiClientError } from "./errors.ts";
import { EventHub, type EventIterationOptions, type Unsubscribe } from "./event-hub.ts";
import { type CallOptions, PendingRequests, type ResponseRecord } from "./pending-requests.ts";
import { type RawCommand, validateRawCommand } from "./raw-command.ts";
import { type RunOutcome, RunTracker, type WaitOptions } from "./run-tracker.ts";

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
  readonly #bashStreams = new Map<string, BashStream>();
  // Pending calls during which pi can open a dialog (see OPENS_DIALOGS), by id.
  readonly #dialogHosts = new Set<string>();
  // What each prompt answer did (pi's disposition, or the inferred one), for promptAndWait.
  readonly #dispositions = new WeakMap<ResponseRecord, PromptDisposition>();
  readonly #abort = new AbortController();
  readonly #defaultTimeoutMs: number;
  readonly #idPrefix =
    `pk${(++clientCounter).toString(36)}${Math.random().toString(36).slice(2, 6)}-`;
  readonly #capabilities: CapabilityTracker;
  #uiState: ExtensionUiState = EMPTY_UI_STATE;
  #nextId = 0;
  #closeInfo: TransportCloseInfo | undefined;
  #pump: Promise<void>;
  // The model's stamp when each response was read, for resync (see SessionStamp).
  readonly #stamps = new WeakMap<object, SessionStamp>();

  /** Settles with why the transport closed; never rejects. */
  readonly closed: Promise<TransportCloseInfo>;

  /**
   * Connects: waits for pi to answer `get_state` (readiness, no sleeps) and probes its
   * capabilities. On failure it rejects at once, naming `connect`, and closes the transport
   * behind it (a process that never answered gets no graceful wait).
   */
  static async connect(transport: Transport, options: ConnectOptions = {}): Promise<PiClient> {
    const client = new PiClient(transport, options);
    const limitMs = options.handshakeTimeoutMs ?? 60_000;
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(PiClientError.timeout("connect", limitMs, "pi to answer the handshake")),
      limitMs,
    );
    const signal =
      options.signal === undefined
        ? deadline.signal
        : AbortSignal.any([options.signal, deadline.signal]);
    let step = "the handshake";
    try {
      throwIfCancelled("connect", options.signal);
      await client.getState({ signal });
      if (options.capabilities === undefined) await client.#detect({ signal });
      clearTimeout(timer);
      step = "loading the session";
      if (options.resync ?? isReconnectingTransport(transport)) await client.session.resync();
    } catch (error) {
      clearTimeout(timer);
      void client.close().catch(() => {});
      if (deadline.signal.aborted) throw deadline.signal.reason;
      if (options.signal?.aborted) throw PiClientError.cancelled("connect", options.signal.reason);
      throw PiClientError.forCall("connect", error, step);
    }
    return client;
  }

  /** Wraps a transport and starts reading it. Prefer {@link PiClient.connect}, which also handshakes. */
  constructor(transport: Transport, options: PiClientOptions = {}) {
    this.#transport = transport;
    this.#defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    const given = options.capabilities;
    this.#capabilities = new CapabilityTracker(
      typeof given === "string" ? capabilitiesFor(given) : (given ?? capabilitiesFor("1")),
    );
    const report = this.#hub.report;
    // A dialog opened during a call goes stale once pi answered it, on time or late.
    this.#pending = new PendingRequests(report, (id) => {
      if (this.#dialogHosts.delete(id)) this.#dialogs.release(id);
    });
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
          if (!client.#capabilities.current.supports("get_entries")) return undefined;
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
      announcesSettled: () => this.#capabilities.current.agentSettled,
      barrier: () => this.getState(),
      settled: (outcome) => {
        this.#dialogs.cancelStale();
        this.#session.runSettled();
        this.#hub.emit({ type: "run_settled", aborted: outcome.aborted });
        // Bash messages pi held during the run are in its transcript now: fetch pi's copies.
        if (this.#session.provisional) void this.#reconcileBash();
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
    if (isSharedTransport(transport)) {
      transport.onDialogClosed((id) => this.#dialogs.answeredElsewhere(id));
    }
    this.#pump = this.#read();
    this.closed = this.#watchClose();
  }

  /**
   * What the connected pi supports: probed by `connect` (otherwise assumed from the options, 1.x
   * by default), then confirmed capability by capability from what pi sends.
   */
  get capabilities(): PiCapabilities {
    return this.#capabilities.current;
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

  /** True while a run is in progress: from pi accepting a prompt that starts one until it settles. */
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

  /**
   * Sends a raw command and resolves with pi's whole success response; an id is added if missing.
   * A known type is validated field by field. A type this client does not know (a newer pi's
   * command) goes out as is, once it is a JSON object with a string `type`, with an
   * `unknown_command` diagnostic; if pi answers `Unknown command` the call fails as `unsupported`
   * and `capabilities.supports(type)` turns false.
   */
  send(command: RpcCommand | RawCommand, options: CallOptions = {}): Promise<ResponseRecord> {
    return this.#call(command, options);
  }

  /**
   * Sends a prompt; resolves with pi's disposition, `undefined` from a pi that gives none
   * (before 0.99). A prompt that starts a run counts as running as soon as this resolves, so
   * `await prompt(); await waitForSettled()` waits for that run.
   */
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
    throwIfCancelled("abort", options?.signal);
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
    throwIfCancelled("bash", call.signal);
    const id = this.#newId();
    const stream: BashStream = { onOutput, streamed: false };
    this.#bashStreams.set(id, stream);
    this.#session.bashStarted(id, command);
    let result: BashResult | undefined;
    try {
      result = await this.request(
        { type: "bash", id, command, ...opt({ excludeFromContext }) },
        call,
      );
      if (!stream.streamed && result.output !== "") this.#capabilities.learnBashStreaming(false);
    } finally {
      this.#bashStreams.delete(id);
      this.#session.bashFinished(id, result);
    }
    // pi adds the call to its transcript as a `bashExecution` message (during a run, when the run
    // ends): so does the session model, and then it takes pi's own copy where that is cheap.
    const duringRun = this.#tracker.running;
    this.#session.bashRecorded(id, command, result, excludeFromContext, duringRun);
    if (!duringRun) await this.#reconcileBash();
    return result;
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
   * Prompts and resolves when the run it started is truly over, or at once when a command handled
   * the prompt. Runs are counted from before the prompt is sent, so a fast finish cannot be missed.
   */
  async promptAndWait(message: string, options: PromptAndWaitOptions = {}): Promise<RunResult> {
    const { settleTimeoutMs, images, streamingBehavior, ...call } = options;
    const wait: WaitOptions = {};
    if (call.signal !== undefined) wait.signal = call.signal;
    if (settleTimeoutMs !== undefined) wait.timeoutMs = settleTimeoutMs;
    try {
      const startsBefore = this.#tracker.starts;
      const response = await this.#call(
        { type: "prompt", message, ...opt({ images, streamingBehavior }) },
        call,
      );
      const disposition = this.#dispositions.get(response) ?? "started";
      if (disposition === "handled") return { disposition, aborted: false };
      if (disposition === "queued" && !this.#tracker.running)
        return { disposition, aborted: false };
      const outcome =
        disposition === "started"
          ? await this.#tracker.waitForRun(startsBefore + 1, wait, "promptAndWait")
          : await this.#tracker.waitForSettled(wait);
      return { disposition, ...outcome };
    } catch (error) {
      throw PiClientError.forCall("promptAndWait", error);
    }
  }

  /** Resolves when the open run is over (at once when none is); a run a prompt just started counts. */
  async waitForSettled(options?: WaitOptions): Promise<RunOutcome> {
    try {
      return await this.#tracker.waitForSettled(options);
    } catch (error) {
      throw PiClientError.forCall("waitForSettled", error);
    }
  }

  /** Closes the transport (pi exits gracefully); pending calls reject with `transport_closed`. */
  async close(): Promise<TransportCloseInfo> {
    const info = await this.#transport.close();
    this.#shutdown(info);
    return info;
  }

  // What a prompt pi answered did, and what follows from it: the disposition pi gave, or (from a
  // pi that gives none) one inferred; a run it started is open in the tracker from here on.
  async #promptAnswered(
    response: ResponseRecord,
    command: RpcCommand | RawCommand,
    before: RunMark,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const reported = dispositionOf(response.data);
    this.#capabilities.learnDisposition(reported !== undefined);
    const queueable = (command as { streamingBehavior?: unknown }).streamingBehavior !== undefined;
    const disposition = reported ?? (await this.#inferDisposition(before, queueable, signal));
    this.#dispositions.set(response, disposition);
    if (disposition === "started") this.#tracker.expectRun(before.starts);
  }

  // A pi without dispositions: a `get_state` barrier tells a run (pi is streaming, or a run began
  // since the prompt was sent) from a prompt a command handled; pi was busy, a queued one.
  async #inferDisposition(
    before: RunMark,
    queueable: boolean,
    signal: AbortSignal | undefined,
  ): Promise<PromptDisposition> {
    if (this.#tracker.starts > before.starts) return "started";
    if (before.running && queueable) return "queued";
    const state = await this.getState(signal === undefined ? {} : { signal });
    if (this.#tracker.starts > before.starts) return "started";
    return state.isStreaming ? "started" : "handled";
  }

  async #detect(options: CallOptions): Promise<void> {
    try {
      await this.#call({ type: "get_available_thinking_levels" }, options);
      this.#capabilities.reset(capabilitiesFor("1", true));
    } catch (error) {
      if (!(error instanceof PiClientError) || error.code !== "unsupported") throw error;
      this.#capabilities.reset(capabilitiesFor("0.73", true));
    }
  }

  #newId(): string {
    return `${this.#idPrefix}${++this.#nextId}`;
  }

  async #call(command: RpcCommand | RawCommand, options: CallOptions): Promise<ResponseRecord> {
    const type = typeOf(command);
    // A cancelled call never reaches pi.
    throwIfCancelled(type, options.signal);
    if (this.#closeInfo !== undefined) throw PiClientError.transportClosed(this.#closeInfo, type);
    const known = isCommandType(type);
    const invalid = known ? validateCommand(command) : validateRawCommand(command);
    if (invalid !== undefined) throw PiClientError.invalidCommand(type, invalid);
    if (!this.#capabilities.current.supports(type)) {
      throw PiClientError.unsupported(type, this.#unsupportedWhy(type));
    }
    if (!known) {
      this.#hub.report({
        kind: "unknown_command",
        message: `sent "${type}", a command type this client does not know; pi answers it (a newer pi) or says Unknown command`,
        record: command,
      });
    }
    const before: RunMark = { starts: this.#tracker.starts, running: this.#tracker.running };
    const dialogsBefore = this.#dialogs.mark();
    const id: CommandId = command.id ?? this.#newId();
    if (OPENS_DIALOGS.has(type)) this.#dialogHosts.add(String(id));
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
    if (!answer.success) {
      const text = answer.error ?? "(no error text)";
      const refusal = (answer as { code?: unknown }).code;
      if (refusal === "not_in_control" || refusal === "read_only") {
        throw PiClientError.notInControl(type, text);
      }
      if (text.startsWith("Unknown command")) {
        this.#capabilities.learnUnknown(type);
        throw PiClientError.unsupported(type, `it answered "${text}"`);
      }
      throw PiClientError.rpcFailed(type, text);
    }
    if (type === "steer" || type === "follow_up") {
      this.#capabilities.learnDisposition(dispositionOf(answer.data) !== undefined);
    }
    if (type === "prompt") {
      try {
        await this.#promptAnswered(answer, command, before, options.signal);
      } catch (error) {
        throw PiClientError.forCall(type, error, "telling what the prompt did");
      }
    }
    if (CHANGES_SESSION.has(type) && !vetoedByHook(answer.data)) {
      await this.#sessionChanged(type as SessionChangeReason, dialogsBefore);
      return answer;
    }
    // A pi without `agent_settled` (0.73.x) abandons a run mid-stream on these without a word;
    // a `get_state` afterwards settles it.
    if (ABANDONS_RUN.has(type) && this.#tracker.running && !this.capabilities.agentSettled) {
      void this.getState().catch(() => {
        // Best effort: the next get_state settles the run as well.
      });
    }
    return answer;
  }

  // The bash messages the model built carry this client's clock; pi's copies (with pi's timestamp)
  // come with the entries since the cursor, where pi has `get_entries`. On 0.73.x they wait for
  // the next resync. A failure costs only the timestamp, so it is reported, not thrown.
  async #reconcileBash(): Promise<void> {
    if (!this.capabilities.supports("get_entries")) return;
    try {
      await this.#session.resync();
    } catch (error) {
      if (this.#closeInfo !== undefined) return;
      this.#hub.report({
        kind: "resync_failed",
        message: `reading pi's copy of a bash message failed: ${String(error)}`,
        error,
      });
    }
  }

  #unsupportedWhy(type: string): string {
    return this.capabilities.versionLine === "0.73" && COMMANDS_MISSING_IN_073.has(type as never)
      ? "pi 0.73.x lacks it; it needs pi 0.84 or later"
      : "it answered Unknown command before";
  }

  // pi is on another session: load it in full before anyone hears of the change, so a listener
  // (a tree, a picker, a transcript) reading `client.session` sees the new one.
  // Dialogs opened before the command was sent belonged to the old session: they are stale.
  async #sessionChanged(reason: SessionChangeReason, dialogsBefore: number): Promise<void> {
    let state: SessionState | undefined;
    try {
      state = (await this.#session.reload()).state;
    } catch (error) {
      throw PiClientError.forCall(reason, error, "loading the new session");
    }
    this.#dialogs.closeOpenedBefore(dialogsBefore);
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
    const lost = this.#pending.failSentBefore(info.generation, (command) =>
      PiClientError.connectionLost(command),
    );
    // pi may still run those calls: a dialog they opened stays until the re-attach tells.
    for (const id of lost) this.#dialogHosts.delete(id);
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
    if (event.type === "bash_execution_update") this.#capabilities.learnBashStreaming(true);
    if (event.type === "agent_settled") {
      this.#capabilities.learnSettled(typeof event.aborted === "boolean");
    }
    if (event.type === "bash_execution_update" && event.id !== undefined) {
      const stream = this.#bashStreams.get(String(event.id));
      if (stream !== undefined) stream.streamed = true;
      try {
        stream?.onOutput?.(event.delta);
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
        this.#dialogs.open(request, {
          run: this.#tracker.running,
          calls: [...this.#dialogHosts],
        });
        break;
      default:
        this.#uiState = applyUiRequest(this.#uiState, request);
        this.#session.setUi(this.#uiState);
    }
    this.#hub.emit(request);
  }
}

/** The tracker's run count and state when a command was sent. */
interface RunMark {
  readonly starts: number;
  readonly running: boolean;
}

/** A direct bash call in flight: its output listener, and whether pi streamed any of it. */
interface BashStream {
  readonly onOutput: ((delta: string) => void) | undefined;
  streamed: boolean;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
