import type {
  AgentMessage,
  BashResult,
  CommandId,
  ContextUsage,
  RpcEvent,
  SessionEntry,
  SessionState,
} from "@pi-kit/protocol";
import type { DiagnosticSink } from "../diagnostics/pi-client-diagnostic.ts";
import type { PendingDialog } from "../extension-ui/dialog-manager.ts";
import type { ExtensionUiState } from "../extension-ui/ui-state.ts";
import { bashExecutionMessage, ProvisionalMessages } from "./bash-messages.ts";
import { linearDelta, overlapMerge, settleTools } from "./resync-merge.ts";
import {
  addBashMessages,
  initialSessionState,
  MAX_HELD_BACK,
  patchSnapshot,
  reduceSessionEvent,
  type SessionModelState,
  updateBashRun,
} from "./session-reducer.ts";
import type { BashRun, SessionSnapshot, SessionStamp } from "./session-snapshot.ts";

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
  readonly #source: SessionSource;
  readonly #report: DiagnosticSink | undefined;
  // Direct bash messages built here (see bash-messages.ts), until pi's copies replace them.
  readonly #provisional = new ProvisionalMessages();
  /** The snapshot and the bookkeeping behind it: replaced by each change, never edited. */
  #state: SessionModelState = initialSessionState(this.#provisional);
  #notifyQueued = false;
  // True once a full resync has loaded the transcript: only then is `lastEntryId` a cursor that
  // the messages agree with (a model that joined a session late has entries but not all messages).
  #baseline = false;
  #resyncing: Promise<unknown> = Promise.resolve();

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
  readonly getSnapshot = (): SessionSnapshot => this.#state.snapshot;

  /**
   * The counts of messages and entries the event stream has delivered. A {@link SessionSource}
   * stamps each answer with it, read synchronously when the answer arrives.
   */
  stamp(): SessionStamp {
    return { messages: this.#state.messageCount, entries: this.#state.entryCount };
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
    const stale = this.#state.snapshot.streamingMessage !== undefined;
    this.#state = { ...this.#state, streamStale: stale };
  }

  // `fresh`: pi is on another session now, so nothing of the current one carries over.
  async #resync(fresh: boolean): Promise<SessionSnapshot> {
    const previous = this.#state.snapshot.state?.sessionId;
    const cursor = fresh ? undefined : this.#state.snapshot.lastEntryId;
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
    const current = this.#state;
    const s = current.snapshot;
    this.#baseline = true;
    this.#set({
      ...patchSnapshot(current, {
        messages: loaded.messages,
        state,
        isStreaming: state.isStreaming,
        isCompacting: state.isCompacting,
        isRunning: state.isStreaming || s.isRunning,
        streamingMessage: state.isStreaming ? s.streamingMessage : undefined,
        lastEntryId: loaded.lastEntryId,
        toolExecutions: replaced ? new Map() : settleTools(s.toolExecutions, loaded.messages),
        ...(replaced ? NEW_SESSION : {}),
      }),
      // A message that is not streaming any more takes no deltas.
      ...(state.isStreaming ? {} : { streamStale: false }),
      ...(replaced ? { bashDuringRun: [] } : {}),
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
          : this.#state.snapshot.lastEntryId
        : this.#cursorAfter(entries.leafId ?? undefined, entries.at);
    return { messages: overlapMerge(messages, after, this.#provisional), lastEntryId };
  }

  // The transcript as it was when pi's answer was read (`before`), and what the stream appended since.
  #splitAt(at: SessionStamp | undefined): { before: AgentMessage[]; after: AgentMessage[] } {
    const messages = this.#state.snapshot.messages;
    const later =
      at === undefined ? 0 : Math.min(messages.length, this.#state.messageCount - at.messages);
    const cut = messages.length - Math.max(0, later);
    return { before: messages.slice(0, cut), after: messages.slice(cut) };
  }

  // An `entry_appended` read after pi's answer is newer than the answer's leaf: keep it.
  #cursorAfter(
    leafId: string | null | undefined,
    at: SessionStamp | undefined,
  ): string | undefined {
    if (at !== undefined && this.#state.entryCount > at.entries) {
      return this.#state.snapshot.lastEntryId;
    }
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
    const heldBack = reported
      .slice(-MAX_HELD_BACK)
      .filter((message) => !seen.some((known) => this.#provisional.same(known, message)));
    this.#state = { ...this.#state, heldBack };
  }

  /** Applies one event from pi (see {@link reduceSessionEvent}). Called by the client before its listeners run. */
  handleEvent(event: RpcEvent): void {
    this.#set(reduceSessionEvent(this.#state, event));
  }

  /** The run settled (agent_settled, or the 0.73.x fallback). */
  runSettled(): void {
    this.#set({
      ...patchSnapshot(this.#state, {
        isRunning: false,
        isStreaming: false,
        isRetrying: false,
        retry: undefined,
      }),
      heldBack: [],
    });
  }

  /** Records a `get_state` answer. */
  noteState(state: SessionState): void {
    this.#patch({ state, isCompacting: state.isCompacting });
  }

  /** Records a `get_session_stats` answer's context usage. */
  noteContextUsage(contextUsage: ContextUsage | undefined): void {
    if (contextUsage !== undefined) this.#patch({ contextUsage });
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
    this.#patch({ bashRuns: [...this.#state.snapshot.bashRuns, run] });
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
    const state = this.#state;
    if (duringRun) {
      this.#set({ ...state, bashDuringRun: [...state.bashDuringRun, { id, message }] });
    } else {
      this.#set(addBashMessages(state, [{ id, message }]));
    }
  }

  /** True while the transcript holds a bash message built here that pi's own copy has not replaced. */
  get provisional(): boolean {
    return this.#state.snapshot.messages.some((message) => this.#provisional.has(message));
  }

  /** A direct bash call finished (`result`) or failed (`undefined`). */
  bashFinished(id: CommandId, result: BashResult | undefined): void {
    this.#set(
      updateBashRun(this.#state, id, (run) => ({
        ...run,
        status: result === undefined ? "failed" : "done",
        result,
        // 0.73.x streams nothing; the final (possibly truncated) output is all there is.
        output: run.output === "" && result !== undefined ? result.output : run.output,
      })),
    );
  }

  /** The extension-UI state changed. */
  setUi(ui: ExtensionUiState): void {
    if (ui !== this.#state.snapshot.ui) this.#patch({ ui });
  }

  /** The open dialogs changed. */
  setDialogs(dialogs: readonly PendingDialog[]): void {
    this.#patch({ dialogs });
  }

  #patch(patch: Partial<SessionSnapshot>): void {
    this.#set(patchSnapshot(this.#state, patch));
  }

  // Takes the next state; listeners hear of a new snapshot once per microtask.
  #set(next: SessionModelState): void {
    const changed = next.snapshot !== this.#state.snapshot;
    this.#state = next;
    if (!changed || this.#notifyQueued) return;
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
