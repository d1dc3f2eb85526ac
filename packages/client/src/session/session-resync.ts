/**
 * Reloading a session model from pi (`SessionModel.resync()` and `reload()`): what to read (the
 * whole transcript, or only the entries after the cursor), and how to fold the answer into the
 * state the event stream kept building meanwhile. The merges themselves are in resync-merge.ts.
 */
import type { AgentMessage, SessionEntry, SessionState } from "@pi-kit/protocol";
import type { ProvisionalMessages } from "./bash-messages.ts";
import { linearDelta, overlapMerge, settleTools } from "./resync-merge.ts";
import { MAX_HELD_BACK, patchSnapshot, type SessionModelState } from "./session-reducer.ts";
import type { SessionSnapshot, SessionStamp } from "./session-snapshot.ts";

/** What a resync reads from pi. Answers may carry `at`, the model's `stamp()` when they were read. */
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

/** The model a resync reloads: its current state, and how to replace it (listeners hear of it). */
export interface ResyncTarget {
  state(): SessionModelState;
  set(next: SessionModelState): void;
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
 * One session model's resyncs, one at a time. The first, and any on pi 0.73.x, replaces the
 * transcript with `get_messages`; later ones on 1.x read only the entries after `lastEntryId`
 * (`get_entries {since}`) and fall back to a full reload when those are not a plain continuation.
 * Messages the stream delivered meanwhile are merged, never lost or doubled.
 */
export class SessionResync {
  readonly #source: SessionSource;
  /** Tells the bash messages built locally from pi's copies of them. */
  readonly #provisional: ProvisionalMessages;
  readonly #target: ResyncTarget;
  // True once a full resync has loaded the transcript: only then is `lastEntryId` a cursor that
  // the messages agree with (a model that joined a session late has entries but not all messages).
  #baseline = false;
  #running: Promise<unknown> = Promise.resolve();

  constructor(source: SessionSource, provisional: ProvisionalMessages, target: ResyncTarget) {
    this.#source = source;
    this.#provisional = provisional;
    this.#target = target;
  }

  /**
   * Reloads after the resyncs before it have finished. `fresh`: pi is on another session now, so
   * nothing of the current one carries over.
   */
  run(fresh: boolean): Promise<SessionSnapshot> {
    const load = (): Promise<SessionSnapshot> => this.#resync(fresh);
    const run = this.#running.then(load, load);
    this.#running = run;
    return run;
  }

  get #state(): SessionModelState {
    return this.#target.state();
  }

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
    this.#target.set({
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
    return this.#state.snapshot;
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
    this.#target.set({ ...this.#state, heldBack });
  }
}
