import type {
  AgentMessage,
  BashResult,
  CommandResponseData,
  CommandType,
  ForkMessage,
  Model,
  PromptDisposition,
  QueuedInputDisposition,
  QueueMode,
  RpcCommand,
  SessionState,
  SlashCommand,
  ThinkingLevel,
} from "@pi-kit/protocol";
import type { PiClientDiagnostic } from "../diagnostics/pi-client-diagnostic.ts";
import type { SessionModel } from "../session/session-model.ts";
import type { Transport, TransportCloseInfo } from "../transports/transport.ts";
import type { PiCapabilities } from "./capabilities.ts";
import { type AssembledClient, assembleClient } from "./client-assembly.ts";
import type { ClientEvent, ClientEventOf } from "./client-events.ts";
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
import { opt, throwIfCancelled } from "./commands.ts";
import { PiClientError } from "./errors.ts";
import type { EventIterationOptions, Unsubscribe } from "./event-hub.ts";
import { handshake } from "./handshake.ts";
import type { CallOptions, ResponseRecord } from "./pending-requests.ts";
import type { RawCommand } from "./raw-command.ts";
import type { RunOutcome, WaitOptions } from "./run-tracker.ts";

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
  readonly #parts: AssembledClient;
  readonly #abort = new AbortController();
  #closeInfo: TransportCloseInfo | undefined;

  /** Settles with why the transport closed; never rejects. */
  readonly closed: Promise<TransportCloseInfo>;

  /**
   * Connects: waits for pi to answer `get_state` (readiness, no sleeps) and probes its
   * capabilities. On failure it rejects at once, naming `connect`, and closes the transport
   * behind it (a process that never answered gets no graceful wait).
   */
  static async connect(transport: Transport, options: ConnectOptions = {}): Promise<PiClient> {
    const client = new PiClient(transport, options);
    const caller = client.#parts.caller;
    await handshake(transport, options, {
      getState: (callOptions) => client.getState(callOptions),
      detect: options.capabilities === undefined ? (o) => caller.detect(o) : undefined,
      resync: () => client.session.resync(),
      close: () => client.close(),
    });
    return client;
  }

  /** Wraps a transport and starts reading it. Prefer {@link PiClient.connect}, which also handshakes. */
  constructor(transport: Transport, options: PiClientOptions = {}) {
    this.#transport = transport;
    this.#parts = assembleClient(transport, options, {
      getState: (callOptions) => this.getState(callOptions),
      closeInfo: () => this.#closeInfo,
    });
    this.closed = this.#parts.link.closed.then((info) => {
      this.#shutdown(info);
      return info;
    });
  }

  /**
   * What the connected pi supports: probed by `connect` (otherwise assumed from the options, 1.x
   * by default), then confirmed capability by capability from what pi sends.
   */
  get capabilities(): PiCapabilities {
    return this.#parts.capabilities.current;
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
    return this.#parts.session;
  }

  /** True while a run is in progress: from pi accepting a prompt that starts one until it settles. */
  get isRunning(): boolean {
    return this.#parts.tracker.running;
  }

  /** Extension UI: the dialog handler, open dialogs, and retained statuses, widgets and title. */
  get ui(): ClientUi {
    const dialogs = this.#parts.dialogs;
    const router = this.#parts.router;
    return {
      setDialogHandler: (handler) => dialogs.setHandler(handler),
      answer: (id, reply) => dialogs.answer(id, reply),
      cancel: (id) => dialogs.cancel(id),
      get state() {
        return router.uiState;
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
      return this.#parts.hub.onDiagnostic(listener as (d: PiClientDiagnostic) => void);
    return this.#parts.hub.on(type as ClientEvent["type"], listener as (e: ClientEvent) => void);
  }

  /** Subscribes to every event (not diagnostics). */
  onEvent(listener: (event: ClientEvent) => void): Unsubscribe {
    return this.#parts.hub.onAny(listener);
  }

  /**
   * Iterates over events from now on until the client closes.
   * @example
   * for await (const event of client.events({ signal })) if (event.type === "agent_settled") break;
   */
  events(options?: EventIterationOptions): AsyncIterableIterator<ClientEvent> {
    return this.#parts.hub.iterate(options);
  }

  /** Sends any command and resolves with its response `data`, typed by command. */
  async request<C extends CommandType>(
    command: RpcCommand & { readonly type: C },
    options: CallOptions = {},
  ): Promise<CommandResponseData[C]> {
    const response = await this.#parts.caller.call(command, options);
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
    return this.#parts.caller.call(command, options);
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
    this.#parts.dialogs.cancelAll();
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
    const epoch = this.#parts.tracker.epoch;
    const state = await this.request({ type: "get_state" }, options);
    this.#parts.session.noteState(state);
    this.#parts.tracker.noteState(state, epoch);
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
  bash(command: string, options: BashOptions = {}): Promise<BashResult> {
    return this.#parts.bash.run(command, options);
  }

  /** Cancels the running `bash` command. */
  async abortBash(options?: CallOptions): Promise<void> {
    await this.request({ type: "abort_bash" }, options);
  }

  /** Reads token, cost and context-usage totals (and records the context usage in the session model). */
  async getSessionStats(options?: CallOptions): Promise<CommandResponseData["get_session_stats"]> {
    const stats = await this.request({ type: "get_session_stats" }, options);
    this.#parts.session.noteContextUsage(stats.contextUsage);
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
      const startsBefore = this.#parts.tracker.starts;
      const response = await this.#parts.caller.call(
        { type: "prompt", message, ...opt({ images, streamingBehavior }) },
        call,
      );
      const disposition = this.#parts.caller.dispositionOf(response) ?? "started";
      if (disposition === "handled") return { disposition, aborted: false };
      if (disposition === "queued" && !this.#parts.tracker.running)
        return { disposition, aborted: false };
      const outcome =
        disposition === "started"
          ? await this.#parts.tracker.waitForRun(startsBefore + 1, wait, "promptAndWait")
          : await this.#parts.tracker.waitForSettled(wait);
      return { disposition, ...outcome };
    } catch (error) {
      throw PiClientError.forCall("promptAndWait", error);
    }
  }

  /** Resolves when the open run is over (at once when none is); a run a prompt just started counts. */
  async waitForSettled(options?: WaitOptions): Promise<RunOutcome> {
    try {
      return await this.#parts.tracker.waitForSettled(options);
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

  #shutdown(info: TransportCloseInfo): void {
    if (this.#closeInfo !== undefined) return;
    this.#closeInfo = info;
    const error = (command: string): PiClientError => PiClientError.transportClosed(info, command);
    this.#parts.pending.close(error);
    this.#parts.tracker.close(PiClientError.transportClosed(info));
    this.#parts.dialogs.dispose();
    this.#parts.hub.close();
    this.#abort.abort(PiClientError.transportClosed(info));
  }
}
