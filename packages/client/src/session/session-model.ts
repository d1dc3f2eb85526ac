import type { BashResult, CommandId, ContextUsage, RpcEvent, SessionState } from "@pi-kit/protocol";
import type { DiagnosticSink } from "../diagnostics/pi-client-diagnostic.ts";
import type { PendingDialog } from "../extension-ui/dialog-manager.ts";
import type { ExtensionUiState } from "../extension-ui/ui-state.ts";
import { bashExecutionMessage, ProvisionalMessages } from "./bash-messages.ts";
import {
  addBashMessages,
  initialSessionState,
  patchSnapshot,
  reduceSessionEvent,
  type SessionModelState,
  updateBashRun,
} from "./session-reducer.ts";
import { SessionResync, type SessionSource } from "./session-resync.ts";
import type { BashRun, SessionSnapshot, SessionStamp } from "./session-snapshot.ts";

export type { SessionSource } from "./session-resync.ts";

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
  readonly #report: DiagnosticSink | undefined;
  // Direct bash messages built here (see bash-messages.ts), until pi's copies replace them.
  readonly #provisional = new ProvisionalMessages();
  /** The snapshot and the bookkeeping behind it: replaced by each change, never edited. */
  #state: SessionModelState = initialSessionState(this.#provisional);
  #notifyQueued = false;
  readonly #resync: SessionResync;

  constructor(source: SessionSource, report?: DiagnosticSink) {
    this.#report = report;
    this.#resync = new SessionResync(source, this.#provisional, {
      state: () => this.#state,
      set: (next) => this.#set(next),
    });
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
    return this.#resync.run(false);
  }

  /**
   * Loads the session pi is on now, in full, after a command switched it (`new_session`,
   * `switch_session`, `fork`, `clone`): the old session's transcript, tool executions, bash runs,
   * usage and cursor are replaced, not merged. The client calls it; UIs never need to.
   */
  reload(): Promise<SessionSnapshot> {
    return this.#resync.run(true);
  }

  /** The connection dropped: events are being lost, so the streaming message stops taking deltas. */
  connectionLost(): void {
    const stale = this.#state.snapshot.streamingMessage !== undefined;
    this.#state = { ...this.#state, streamStale: stale };
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
