import type {
  AgentMessage,
  AutoRetryStartEvent,
  BashResult,
  CommandId,
  ContextUsage,
  RpcEvent,
  SessionEntry,
  SessionState,
  Usage,
} from "@pi-kit/protocol";
import type { DiagnosticSink } from "../client/diagnostics.ts";
import type { PendingDialog } from "../extension-ui/dialog-manager.ts";
import { EMPTY_UI_STATE, type ExtensionUiState } from "../extension-ui/ui-state.ts";
import { bashExecutionMessage, ProvisionalMessages } from "./bash-messages.ts";
import { MessageAssembler } from "./message-assembler.ts";
import { linearDelta, overlapMerge, settleTools } from "./resync-merge.ts";

/** One tool execution, keyed by `toolCallId`. */
export interface ToolExecution {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly args: unknown;
  /** Set on calls another tool made. 1.x only. */
  readonly parentToolCallId: string | undefined;
  readonly status: "running" | "done" | "error";
  /** The latest cumulative partial result (pi sends the whole output so far, so it is replaced). */
  readonly partialResult: unknown;
  /** The final result, once done. */
  readonly result: unknown;
  readonly durationMs: number | undefined;
}

/** One direct `bash` call made through this client. */
export interface BashRun {
  /** The `bash` command's id (its `bash_execution_update` events carry it). */
  readonly id: CommandId;
  readonly command: string;
  /** Output streamed so far (1.x streams all of it; 0.73.x streams nothing, see `result`). */
  readonly output: string;
  readonly status: "running" | "done" | "failed";
  readonly result: BashResult | undefined;
  /**
   * Its `bashExecution` message is in `messages` (pi adds it at once, or when the run going on
   * ends): a UI shows the run from here on as that message, not twice.
   */
  readonly inTranscript: boolean;
}

/** A direct bash call's `bashExecution` message, with the id of the call that made it. */
interface BashRecord {
  readonly id: CommandId;
  readonly message: AgentMessage;
}

/** Everything a UI renders, as one immutable snapshot. */
export interface SessionSnapshot {
  /** Completed messages, oldest first. */
  readonly messages: readonly AgentMessage[];
  /** The message being streamed, assembled from deltas; `undefined` between messages. */
  readonly streamingMessage: AgentMessage | undefined;
  /** Tool executions of the latest run, by `toolCallId`. */
  readonly toolExecutions: ReadonlyMap<string, ToolExecution>;
  /** Direct bash runs, oldest first. */
  readonly bashRuns: readonly BashRun[];
  /** The steering and follow-up queues (always complete, never a diff). */
  readonly queue: { readonly steering: readonly string[]; readonly followUp: readonly string[] };
  /** A run is in progress (from `agent_start` until it settles). */
  readonly isRunning: boolean;
  /** The model is streaming (from `agent_start` to `agent_end`). */
  readonly isStreaming: boolean;
  readonly isCompacting: boolean;
  readonly isRetrying: boolean;
  /** The pending auto-retry, while `isRetrying`. */
  readonly retry: AutoRetryStartEvent | undefined;
  /** The latest token usage of the model. */
  readonly usage: Usage | undefined;
  /** How full the context window is, from the latest `get_session_stats`. */
  readonly contextUsage: ContextUsage | undefined;
  /** The latest `get_state`, kept current with name and thinking-level events. */
  readonly state: SessionState | undefined;
  /** Extension statuses, widgets, title and editor text. */
  readonly ui: ExtensionUiState;
  /** Open extension dialogs. */
  readonly dialogs: readonly PendingDialog[];
  /** The last session entry seen (1.x): the `since` cursor for an incremental resync. */
  readonly lastEntryId: string | undefined;
}

/**
 * How many messages and entries the event stream had delivered when pi's answer to a resync query
 * was read: it tells a resync which events came after the answer, so none is lost or doubled.
 */
export interface SessionStamp {
  /** Messages appended by `message_end` so far. */
  readonly messages: number;
  /** `entry_appended` events seen so far. */
  readonly entries: number;
}

/** What a resync reads from pi. Answers may carry `at`, the model's {@link SessionModel.stamp} when they were read. */
export interface SessionSource {
  getState(): Promise<SessionState>;
  getMessages(): Promise<{
    readonly messages: readonly AgentMessage[];
    readonly at?: SessionStamp;
  }>;
  /** 1.x only; `undefined` on 0.73.x. With `since`, only the entries after that one (pi fails if it is unknown). */
  getEntries?:
    | ((since?: string) => Promise<{
        readonly entries: readonly SessionEntry[];
        readonly leafId: string | null;
        readonly at?: SessionStamp;
      }>)
    | undefined;
}

// A resynced message whose `message_end` is still on its way is held back this many at most.
const MAX_HELD_BACK = 8;

interface Loaded {
  readonly messages: readonly AgentMessage[];
  readonly lastEntryId: string | undefined;
}

// What a newly loaded session starts without: these belonged to the one pi left.
const NEW_SESSION = {
  bashRuns: [],
  usage: undefined,
  contextUsage: undefined,
} as const satisfies Partial<SessionSnapshot>;

const INITIAL: SessionSnapshot = {
  messages: [],
  streamingMessage: undefined,
  toolExecutions: new Map(),
  bashRuns: [],
  queue: { steering: [], followUp: [] },
  isRunning: false,
  isStreaming: false,
  isCompacting: false,
  isRetrying: false,
  retry: undefined,
  usage: undefined,
  contextUsage: undefined,
  state: undefined,
  ui: EMPTY_UI_STATE,
  dialogs: [],
  lastEntryId: undefined,
};

/**
 * The observable state of one pi session, fed by the client's events. Framework-agnostic: a
 * `subscribe`/`getSnapshot` store that React's `useSyncExternalStore` and Lit controllers can use
 * directly. Snapshots are immutable; listeners are called once per microtask however many events
 * arrived, and `getSnapshot` is always current.
 * @example
 * const off = client.session.subscribe(() => render(client.session.getSnapshot()));
 */
export class SessionModel {
  readonly #listeners = new Set<() => void>();
  readonly #assembler = new MessageAssembler();
  readonly #source: SessionSource;
  readonly #report: DiagnosticSink | undefined;
  /** The current state, updated in place; values inside are immutable and replaced, never edited. */
  readonly #state: { -readonly [K in keyof SessionSnapshot]: SessionSnapshot[K] } = { ...INITIAL };
  /** The immutable snapshot of `#state`, made when first read after a change. */
  #snapshot: SessionSnapshot | undefined = INITIAL;
  #notifyQueued = false;
  #messageCount = 0;
  #entryCount = 0;
  // True once a full resync has loaded the transcript: only then is `lastEntryId` a cursor that
  // the messages agree with (a model that joined a session late has entries but not all messages).
  #baseline = false;
  #resyncing: Promise<unknown> = Promise.resolve();
  // Messages a resync added that the stream had not delivered: their `message_end` may still come.
  #heldBack: AgentMessage[] = [];
  // Direct bash messages built here (see bash-messages.ts), and those pi holds until its run ends.
  readonly #provisional = new ProvisionalMessages();
  #bashDuringRun: BashRecord[] = [];

  constructor(source: SessionSource, report?: DiagnosticSink) {
    this.#source = source;
    this.#report = report;
  }

  /** Subscribes to changes; returns the unsubscribe function. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** The current snapshot (the same object until something changes). */
  // Made on demand: a burst of events between two reads costs one shallow copy, not one per event.
  readonly getSnapshot = (): SessionSnapshot => {
    this.#snapshot ??= { ...this.#state };
    return this.#snapshot;
  };

  /**
   * The counts of messages and entries the event stream has delivered. A {@link SessionSource}
   * stamps each answer with it, read synchronously when the answer arrives.
   */
  stamp(): SessionStamp {
    return { messages: this.#messageCount, entries: this.#entryCount };
  }

  /**
   * Reloads messages and flags from pi, after connecting mid-session or when events were lost (the
   * client calls it after every reconnect). The first resync, and any on pi 0.73.x, replaces the
   * transcript with `get_messages`; later ones on 1.x read only the entries after `lastEntryId`
   * (`get_entries {since}`) and fall back to a full reload when those are not a plain continuation.
   * Messages the stream delivered meanwhile are merged, never lost or doubled. Calls are serialised.
   */
  resync(): Promise<SessionSnapshot> {
    return this.#serialised(() => this.#resync(false));
  }

  /**
   * Loads the session pi is on now, in full, after a command switched it (`new_session`,
   * `switch_session`, `fork`, `clone`): the old session's transcript, tool executions, bash runs,
   * usage and cursor are replaced, not merged. The client calls it; UIs never need to.
   */
  reload(): Promise<SessionSnapshot> {
    return this.#serialised(() => this.#resync(true));
  }

  #serialised(load: () => Promise<SessionSnapshot>): Promise<SessionSnapshot> {
    const run = this.#resyncing.then(load, load);
    this.#resyncing = run;
    return run;
  }

  /** The connection dropped: events are being lost, so the streaming message stops taking deltas. */
  connectionLost(): void {
    this.#assembler.invalidate();
  }

  // `fresh`: pi is on another session now, so nothing of the current one carries over.
  async #resync(fresh: boolean): Promise<SessionSnapshot> {
    const previous = this.#state.state?.sessionId;
    const cursor = fresh ? undefined : this.#state.lastEntryId;
    const getEntries = this.#source.getEntries;
    const incremental = this.#baseline && cursor !== undefined && getEntries !== undefined;
    // One round: the state and the transcript (whole, or the entries since the cursor) at once.
    const [state, merged, whole] = await Promise.all([
      this.#source.getState(),
      incremental ? this.#incremental(getEntries, cursor) : undefined,
      incremental ? undefined : this.#full(fresh),
    ]);
    // A reconnect can land on another session (the bridge restarted pi on another file): then
    // the entries since the cursor mean nothing, and the rare second round loads it whole.
    const replaced = fresh || (previous !== undefined && state.sessionId !== previous);
    const loaded = whole ?? (replaced ? undefined : merged) ?? (await this.#full(replaced));
    const streaming = state.isStreaming ? this.#state.streamingMessage : undefined;
    if (!state.isStreaming) this.#assembler.end();
    if (replaced) this.#bashDuringRun = [];
    this.#baseline = true;
    this.#set({
      messages: loaded.messages,
      state,
      isStreaming: state.isStreaming,
      isCompacting: state.isCompacting,
      isRunning: state.isStreaming || this.#state.isRunning,
      streamingMessage: streaming,
      lastEntryId: loaded.lastEntryId,
      toolExecutions: replaced
        ? new Map()
        : settleTools(this.#state.toolExecutions, loaded.messages),
      ...(replaced ? NEW_SESSION : {}),
    });
    return this.getSnapshot();
  }

  async #incremental(
    getEntries: NonNullable<SessionSource["getEntries"]>,
    cursor: string,
  ): Promise<Loaded | undefined> {
    let answer: Awaited<ReturnType<typeof getEntries>>;
    try {
      answer = await getEntries(cursor);
    } catch {
      // The cursor's entry is gone (a new or switched session): only a full reload can tell.
      return undefined;
    }
    const delta = linearDelta(answer.entries, cursor, answer.leafId);
    if (delta === undefined) return undefined;
    const { before, after } = this.#splitAt(answer.at);
    const identity = this.#provisional;
    const merged = overlapMerge(overlapMerge(before, delta, identity), after, identity);
    this.#holdBack(delta, before, after);
    return { messages: merged, lastEntryId: this.#cursorAfter(answer.leafId, answer.at) };
  }

  async #full(replaced: boolean): Promise<Loaded> {
    const [{ messages, at }, entries] = await Promise.all([
      this.#source.getMessages(),
      this.#source.getEntries?.(),
    ]);
    const { after } = this.#splitAt(at);
    this.#holdBack(messages, [], after);
    const lastEntryId =
      entries === undefined
        ? replaced
          ? undefined
          : this.#state.lastEntryId
        : this.#cursorAfter(entries.leafId ?? undefined, entries.at);
    return { messages: overlapMerge(messages, after, this.#provisional), lastEntryId };
  }

  // The transcript as it was when pi's answer was read (`before`), and what the stream appended since.
  #splitAt(at: SessionStamp | undefined): { before: AgentMessage[]; after: AgentMessage[] } {
    const messages = this.#state.messages;
    const later =
      at === undefined ? 0 : Math.min(messages.length, this.#messageCount - at.messages);
    const cut = messages.length - Math.max(0, later);
    return { before: messages.slice(0, cut), after: messages.slice(cut) };
  }

  // An `entry_appended` read after pi's answer is newer than the answer's leaf: keep it.
  #cursorAfter(
    leafId: string | null | undefined,
    at: SessionStamp | undefined,
  ): string | undefined {
    if (at !== undefined && this.#entryCount > at.entries) return this.#state.lastEntryId;
    return leafId ?? undefined;
  }

  // pi may report a message before its `message_end` reaches us; remember the newest reported ones
  // the stream has not delivered, so that late `message_end` does not add them twice.
  #holdBack(
    reported: readonly AgentMessage[],
    before: readonly AgentMessage[],
    after: readonly AgentMessage[],
  ): void {
    const seen = [...before.slice(-MAX_HELD_BACK), ...after];
    this.#heldBack = reported
      .slice(-MAX_HELD_BACK)
      .filter((message) => !seen.some((known) => this.#provisional.same(known, message)));
  }

  /** Applies one event from pi. Called by the client before its listeners run. */
  handleEvent(event: RpcEvent): void {
    const s = this.#state;
    switch (event.type) {
      case "agent_start":
        // pi 0.73.x adds bash messages held during a run only when the next prompt starts.
        this.#addBashDuringRun();
        this.#set({
          isRunning: true,
          isStreaming: true,
          toolExecutions: new Map(),
          isRetrying: false,
          retry: undefined,
        });
        return;
      case "agent_end":
        this.#set({ isStreaming: false });
        return;
      case "agent_settled":
        // pi adds the bash messages it held during the run just before it says so.
        this.#addBashDuringRun();
        return;
      case "message_start":
        this.#set({ streamingMessage: this.#assembler.start(event.message) });
        return;
      case "message_update": {
        const next = this.#assembler.update(event);
        if (next === undefined) return;
        this.#set({ streamingMessage: next, usage: event.usage ?? s.usage });
        return;
      }
      case "message_end": {
        this.#assembler.end();
        const usage = event.message.role === "assistant" ? event.message.usage : s.usage;
        const held = this.#heldBack.findIndex((message) =>
          this.#provisional.same(message, event.message),
        );
        if (held !== -1) {
          // A resync already added this message: it was in pi's answer before this event arrived.
          this.#heldBack.splice(held, 1);
          this.#set({ streamingMessage: undefined, usage });
          return;
        }
        this.#messageCount++;
        this.#set({ messages: [...s.messages, event.message], streamingMessage: undefined, usage });
        return;
      }
      case "tool_execution_start":
        this.#setTool(event.toolCallId, {
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          args: event.args,
          parentToolCallId: event.parentToolCallId,
          status: "running",
          partialResult: undefined,
          result: undefined,
          durationMs: undefined,
        });
        return;
      case "tool_execution_update": {
        const previous = s.toolExecutions.get(event.toolCallId);
        this.#setTool(event.toolCallId, {
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          args: event.args,
          parentToolCallId: event.parentToolCallId,
          status: "running",
          result: undefined,
          durationMs: undefined,
          ...previous,
          partialResult: event.partialResult,
        });
        return;
      }
      case "tool_execution_end": {
        const previous = s.toolExecutions.get(event.toolCallId);
        this.#setTool(event.toolCallId, {
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          args: previous?.args,
          parentToolCallId: event.parentToolCallId,
          partialResult: previous?.partialResult,
          status: event.isError ? "error" : "done",
          result: event.result,
          durationMs: event.durationMs,
        });
        return;
      }
      case "bash_execution_update":
        if (event.id !== undefined)
          this.#updateBash(event.id, (run) => ({ ...run, output: run.output + event.delta }));
        return;
      case "queue_update":
        this.#set({ queue: { steering: event.steering, followUp: event.followUp } });
        return;
      case "compaction_start":
        this.#set({ isCompacting: true });
        return;
      case "compaction_end":
        this.#set({ isCompacting: false });
        return;
      case "auto_retry_start":
        this.#set({ isRetrying: true, retry: event });
        return;
      case "auto_retry_end":
        this.#set({ isRetrying: false, retry: undefined });
        return;
      case "entry_appended":
        this.#entryCount++;
        this.#set({ lastEntryId: event.entry.id });
        return;
      case "session_info_changed":
        if (s.state !== undefined) this.#set({ state: { ...s.state, sessionName: event.name } });
        return;
      case "thinking_level_changed":
        if (s.state !== undefined) this.#set({ state: { ...s.state, thinkingLevel: event.level } });
        return;
      default:
        return;
    }
  }

  /** The run settled (agent_settled, or the 0.73.x fallback). */
  runSettled(): void {
    this.#heldBack = [];
    this.#set({ isRunning: false, isStreaming: false, isRetrying: false, retry: undefined });
  }

  /** Records a `get_state` answer. */
  noteState(state: SessionState): void {
    this.#set({ state, isCompacting: state.isCompacting });
  }

  /** Records a `get_session_stats` answer's context usage. */
  noteContextUsage(contextUsage: ContextUsage | undefined): void {
    if (contextUsage !== undefined) this.#set({ contextUsage });
  }

  /** A direct bash call was sent. */
  bashStarted(id: CommandId, command: string): void {
    const run: BashRun = {
      id,
      command,
      output: "",
      status: "running",
      result: undefined,
      inTranscript: false,
    };
    this.#set({ bashRuns: [...this.#state.bashRuns, run] });
  }

  /**
   * pi answered a direct bash call: its `bashExecution` message joins the transcript as pi adds it,
   * at once, or when the run that is going on ends (`duringRun`).
   */
  bashRecorded(
    id: CommandId,
    command: string,
    result: BashResult,
    excludeFromContext: boolean | undefined,
    duringRun: boolean,
  ): void {
    const message = bashExecutionMessage(command, result, excludeFromContext);
    this.#provisional.add(message);
    if (duringRun) this.#bashDuringRun.push({ id, message });
    else this.#addBash([{ id, message }]);
  }

  /** True while the transcript holds a bash message built here that pi's own copy has not replaced. */
  get provisional(): boolean {
    return this.#state.messages.some((message) => this.#provisional.has(message));
  }

  #addBashDuringRun(): void {
    if (this.#bashDuringRun.length === 0) return;
    const held = this.#bashDuringRun;
    this.#bashDuringRun = [];
    // A resync may have brought pi's copies already (pi was idle sooner than the events said).
    const recent = this.#state.messages.slice(-MAX_HELD_BACK);
    this.#addBash(
      held.filter(({ message }) => !recent.some((known) => this.#provisional.same(known, message))),
      held,
    );
  }

  // Appends bash messages and marks the runs they record (`shown`, by default those added) as
  // shown by the transcript.
  #addBash(added: readonly BashRecord[], shown: readonly BashRecord[] = added): void {
    const messages = added.map(({ message }) => message);
    const ids = new Set(shown.map(({ id }) => id));
    this.#messageCount += messages.length;
    this.#set({
      messages:
        messages.length === 0 ? this.#state.messages : [...this.#state.messages, ...messages],
      bashRuns: this.#state.bashRuns.map((run) =>
        ids.has(run.id) ? { ...run, inTranscript: true } : run,
      ),
    });
  }

  /** A direct bash call finished (`result`) or failed (`undefined`). */
  bashFinished(id: CommandId, result: BashResult | undefined): void {
    this.#updateBash(id, (run) => ({
      ...run,
      status: result === undefined ? "failed" : "done",
      result,
      // 0.73.x streams nothing; the final (possibly truncated) output is all there is.
      output: run.output === "" && result !== undefined ? result.output : run.output,
    }));
  }

  /** The extension-UI state changed. */
  setUi(ui: ExtensionUiState): void {
    if (ui !== this.#state.ui) this.#set({ ui });
  }

  /** The open dialogs changed. */
  setDialogs(dialogs: readonly PendingDialog[]): void {
    this.#set({ dialogs });
  }

  #setTool(id: string, execution: ToolExecution): void {
    const toolExecutions = new Map(this.#state.toolExecutions);
    toolExecutions.set(id, execution);
    this.#set({ toolExecutions });
  }

  #updateBash(id: CommandId, change: (run: BashRun) => BashRun): void {
    const runs = this.#state.bashRuns;
    let index = runs.length - 1;
    while (index >= 0 && runs[index]?.id !== id) index--;
    const run = runs[index];
    if (run === undefined) return;
    const bashRuns = [...runs];
    bashRuns[index] = change(run);
    this.#set({ bashRuns });
  }

  #set(patch: Partial<SessionSnapshot>): void {
    Object.assign(this.#state, patch);
    this.#snapshot = undefined;
    if (this.#notifyQueued) return;
    this.#notifyQueued = true;
    queueMicrotask(() => {
      this.#notifyQueued = false;
      for (const listener of [...this.#listeners]) {
        try {
          listener();
        } catch (error) {
          // A render error must not stop other views from updating.
          this.#report?.({
            kind: "listener_error",
            message: `a session listener threw: ${String(error)}`,
            error,
          });
        }
      }
    });
  }
}
