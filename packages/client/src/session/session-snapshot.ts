/**
 * The immutable state a UI renders: what `SessionModel.getSnapshot()` returns, and its parts.
 */
import type {
  AgentMessage,
  AutoRetryStartEvent,
  BashResult,
  CommandId,
  ContextUsage,
  SessionState,
  Usage,
} from "@pi-kit/protocol";
import type { PendingDialog } from "../extension-ui/dialog-manager.ts";
import { EMPTY_UI_STATE, type ExtensionUiState } from "../extension-ui/ui-state.ts";

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

/** The snapshot of a model that has heard nothing yet. */
export const EMPTY_SESSION_SNAPSHOT: SessionSnapshot = {
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
