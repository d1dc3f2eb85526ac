/**
 * How pi's events change a session: a pure reducer `(state, event) => state` over the session
 * snapshot and the bookkeeping behind it. `SessionModel` folds the live stream through it; a
 * recorded transcript folds the same way.
 */
import {
  type AgentMessage,
  applyMessageDelta,
  type CommandId,
  type RpcEvent,
  rebaseStreamingMessage,
  startStreamingMessage,
} from "@pi-kit/protocol";
import type { BashRecord } from "./bash-messages.ts";
import { BY_VALUE, type MessageIdentity } from "./resync-merge.ts";
import {
  type BashRun,
  EMPTY_SESSION_SNAPSHOT,
  type SessionSnapshot,
  type ToolExecution,
} from "./session-snapshot.ts";

/** The snapshot a UI renders, with what event handling and resync need besides. Immutable. */
export interface SessionModelState {
  /** What a UI renders. */
  readonly snapshot: SessionSnapshot;
  /** Deltas were lost (a dropped connection): the streaming message takes none until it restarts. */
  readonly streamStale: boolean;
  /** Messages appended so far (by `message_end`, and bash messages); see `SessionStamp`. */
  readonly messageCount: number;
  /** `entry_appended` events seen so far; see `SessionStamp`. */
  readonly entryCount: number;
  /** Messages a resync added that the stream had not delivered: their `message_end` may still come. */
  readonly heldBack: readonly AgentMessage[];
  /** Direct bash messages pi holds until the run going on ends. */
  readonly bashDuringRun: readonly BashRecord[];
  /** How two copies of one message are recognised (a bash message built here and pi's copy). */
  readonly identity: MessageIdentity;
}

/** A resynced message whose `message_end` is still on its way is held back this many at most. */
export const MAX_HELD_BACK = 8;

/** The state of a session nothing has been heard of. */
export function initialSessionState(identity: MessageIdentity = BY_VALUE): SessionModelState {
  return {
    snapshot: EMPTY_SESSION_SNAPSHOT,
    streamStale: false,
    messageCount: 0,
    entryCount: 0,
    heldBack: [],
    bashDuringRun: [],
    identity,
  };
}

/**
 * Applies one event from pi. Returns `state` itself when the event changes nothing a UI sees
 * (so a store tells listeners only of real changes), a new state otherwise.
 */
export function reduceSessionEvent(state: SessionModelState, event: RpcEvent): SessionModelState {
  const s = state.snapshot;
  switch (event.type) {
    case "agent_start":
      // pi 0.73.x adds bash messages held during a run only when the next prompt starts.
      return patchSnapshot(addBashDuringRun(state), {
        isRunning: true,
        isStreaming: true,
        toolExecutions: new Map(),
        isRetrying: false,
        retry: undefined,
      });
    case "agent_end":
      return patchSnapshot(state, { isStreaming: false });
    case "agent_settled":
      // pi adds the bash messages it held during the run just before it says so.
      return addBashDuringRun(state);
    case "message_start":
      return {
        ...state,
        streamStale: false,
        snapshot: { ...s, streamingMessage: startStreamingMessage(event.message) },
      };
    case "message_update": {
      const next = state.streamStale
        ? rebaseStreamingMessage(event)
        : applyMessageDelta(s.streamingMessage, event);
      if (next === undefined) return state;
      return {
        ...state,
        streamStale: false,
        snapshot: { ...s, streamingMessage: next, usage: event.usage ?? s.usage },
      };
    }
    case "message_end": {
      const usage = event.message.role === "assistant" ? event.message.usage : s.usage;
      const ended = { ...state, streamStale: false };
      const held = state.heldBack.findIndex((message) =>
        state.identity.same(message, event.message),
      );
      if (held !== -1) {
        // A resync already added this message: it was in pi's answer before this event arrived.
        return {
          ...ended,
          heldBack: state.heldBack.filter((_, i) => i !== held),
          snapshot: { ...s, streamingMessage: undefined, usage },
        };
      }
      return {
        ...ended,
        messageCount: state.messageCount + 1,
        snapshot: {
          ...s,
          messages: [...s.messages, event.message],
          streamingMessage: undefined,
          usage,
        },
      };
    }
    case "tool_execution_start":
      return withTool(state, {
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        args: event.args,
        parentToolCallId: event.parentToolCallId,
        status: "running",
        partialResult: undefined,
        result: undefined,
        durationMs: undefined,
      });
    case "tool_execution_update":
      return withTool(state, {
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        args: event.args,
        parentToolCallId: event.parentToolCallId,
        status: "running",
        result: undefined,
        durationMs: undefined,
        ...s.toolExecutions.get(event.toolCallId),
        partialResult: event.partialResult,
      });
    case "tool_execution_end": {
      const previous = s.toolExecutions.get(event.toolCallId);
      return withTool(state, {
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        args: previous?.args,
        parentToolCallId: event.parentToolCallId,
        partialResult: previous?.partialResult,
        status: event.isError ? "error" : "done",
        result: event.result,
        durationMs: event.durationMs,
      });
    }
    case "bash_execution_update":
      if (event.id === undefined) return state;
      return updateBashRun(state, event.id, (run) => ({
        ...run,
        output: run.output + event.delta,
      }));
    case "queue_update":
      return patchSnapshot(state, {
        queue: { steering: event.steering, followUp: event.followUp },
      });
    case "compaction_start":
      return patchSnapshot(state, { isCompacting: true });
    case "compaction_end":
      return patchSnapshot(state, { isCompacting: false });
    case "auto_retry_start":
      return patchSnapshot(state, { isRetrying: true, retry: event });
    case "auto_retry_end":
      return patchSnapshot(state, { isRetrying: false, retry: undefined });
    case "entry_appended":
      return {
        ...state,
        entryCount: state.entryCount + 1,
        snapshot: { ...s, lastEntryId: event.entry.id },
      };
    case "session_info_changed":
      if (s.state === undefined) return state;
      return patchSnapshot(state, { state: { ...s.state, sessionName: event.name } });
    case "thinking_level_changed":
      if (s.state === undefined) return state;
      return patchSnapshot(state, { state: { ...s.state, thinkingLevel: event.level } });
    default:
      return state;
  }
}

/** `state` with some snapshot fields replaced. */
export function patchSnapshot(
  state: SessionModelState,
  patch: Partial<SessionSnapshot>,
): SessionModelState {
  return { ...state, snapshot: { ...state.snapshot, ...patch } };
}

/**
 * Appends bash messages and marks the runs they record (`shown`, by default those added) as shown
 * by the transcript.
 */
export function addBashMessages(
  state: SessionModelState,
  added: readonly BashRecord[],
  shown: readonly BashRecord[] = added,
): SessionModelState {
  const messages = added.map(({ message }) => message);
  const ids = new Set(shown.map(({ id }) => id));
  const s = state.snapshot;
  return {
    ...state,
    messageCount: state.messageCount + messages.length,
    snapshot: {
      ...s,
      messages: messages.length === 0 ? s.messages : [...s.messages, ...messages],
      bashRuns: s.bashRuns.map((run) => (ids.has(run.id) ? { ...run, inTranscript: true } : run)),
    },
  };
}

/** `state` with the latest bash run of `id` changed; `state` itself when there is none. */
export function updateBashRun(
  state: SessionModelState,
  id: CommandId,
  change: (run: BashRun) => BashRun,
): SessionModelState {
  const runs = state.snapshot.bashRuns;
  let index = runs.length - 1;
  while (index >= 0 && runs[index]?.id !== id) index--;
  const run = runs[index];
  if (run === undefined) return state;
  const bashRuns = [...runs];
  bashRuns[index] = change(run);
  return patchSnapshot(state, { bashRuns });
}

// The run pi held bash messages during has ended: they join the transcript now.
function addBashDuringRun(state: SessionModelState): SessionModelState {
  const held = state.bashDuringRun;
  if (held.length === 0) return state;
  // A resync may have brought pi's copies already (pi was idle sooner than the events said).
  const recent = state.snapshot.messages.slice(-MAX_HELD_BACK);
  const missing = held.filter(
    ({ message }) => !recent.some((known) => state.identity.same(known, message)),
  );
  return addBashMessages({ ...state, bashDuringRun: [] }, missing, held);
}

function withTool(state: SessionModelState, execution: ToolExecution): SessionModelState {
  const toolExecutions = new Map(state.snapshot.toolExecutions);
  toolExecutions.set(execution.toolCallId, execution);
  return patchSnapshot(state, { toolExecutions });
}
