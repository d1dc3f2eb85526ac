/**
 * Events: records pi writes on its own, outside the command/response pairs.
 * Only `bash_execution_update` (1.x) carries an id.
 */
import type { CommandId } from "./commands.ts";
import type { ImageContent, TextContent, ToolCall } from "./content.ts";
import type { AgentMessage, AssistantMessage, ToolResultMessage } from "./messages.ts";
import type { ThinkingLevel, Usage } from "./model.ts";
import type { CompactionReason, CompactionResult, SessionEntry } from "./session.ts";

/**
 * Fields that 0.73.1 adds to every streaming delta: the cumulative message so far. It makes
 * output grow quadratically (22 MB for a 2000-word answer); ignore it and build from deltas.
 */
interface PartialSnapshot {
  /** Cumulative message so far. 0.73.1 only; quadratic, ignore it. */
  readonly partial?: AssistantMessage;
}

/** A text block starts at `contentIndex`. */
export interface TextStartEvent extends PartialSnapshot {
  readonly type: "text_start";
  readonly contentIndex: number;
}

/** More text for the block at `contentIndex`. */
export interface TextDeltaEvent extends PartialSnapshot {
  readonly type: "text_delta";
  readonly contentIndex: number;
  readonly delta: string;
}

/** The text block at `contentIndex` is complete; `content` is authoritative. */
export interface TextEndEvent extends PartialSnapshot {
  readonly type: "text_end";
  readonly contentIndex: number;
  readonly content: string;
}

/** A thinking block starts. */
export interface ThinkingStartEvent extends PartialSnapshot {
  readonly type: "thinking_start";
  readonly contentIndex: number;
}

/** More thinking text. */
export interface ThinkingDeltaEvent extends PartialSnapshot {
  readonly type: "thinking_delta";
  readonly contentIndex: number;
  readonly delta: string;
}

/** The thinking block is complete; `content` is authoritative. */
export interface ThinkingEndEvent extends PartialSnapshot {
  readonly type: "thinking_end";
  readonly contentIndex: number;
  readonly content: string;
}

/** A tool call starts. */
export interface ToolCallStartEvent extends PartialSnapshot {
  readonly type: "toolcall_start";
  readonly contentIndex: number;
  /** The tool call id. 1.x only (0.73.1 has it only inside `partial`). */
  readonly id?: string;
  /** The tool name. 1.x only. */
  readonly toolName?: string;
}

/** More JSON text of the tool call's arguments; buffer it, it is not parseable on its own. */
export interface ToolCallDeltaEvent extends PartialSnapshot {
  readonly type: "toolcall_delta";
  readonly contentIndex: number;
  readonly delta: string;
}

/** The tool call is complete; `toolCall` is authoritative. */
export interface ToolCallEndEvent extends PartialSnapshot {
  readonly type: "toolcall_end";
  readonly contentIndex: number;
  readonly toolCall: ToolCall;
}

/**
 * One streaming step of an assistant message. pi-ai's `start`, `done` and `error` steps never
 * reach the wire: the agent loop turns them into message_start and message_end.
 */
export type AssistantMessageEvent =
  | TextStartEvent
  | TextDeltaEvent
  | TextEndEvent
  | ThinkingStartEvent
  | ThinkingDeltaEvent
  | ThinkingEndEvent
  | ToolCallStartEvent
  | ToolCallDeltaEvent
  | ToolCallEndEvent;

/** The `type` of an {@link AssistantMessageEvent}. */
export type AssistantMessageEventType = AssistantMessageEvent["type"];

/** A run starts (after the `prompt` response). */
export interface AgentStartEvent {
  readonly type: "agent_start";
}

/**
 * A low-level run ends. It is not "done": retries, compaction or queued messages may follow.
 * Use `agent_settled` on 1.x.
 */
export interface AgentEndEvent {
  readonly type: "agent_end";
  /** The messages of this run. */
  readonly messages: readonly AgentMessage[];
  /** True when an auto-retry follows. 1.x only (0.73.1 gives no hint). */
  readonly willRetry?: boolean;
}

/** The session is idle: no retry, compaction or queued continuation will follow. 1.x only. */
export interface AgentSettledEvent {
  readonly type: "agent_settled";
  /** True when the run ended by abort (`compact` and `new_session` also abort on 1.x). */
  readonly aborted?: boolean;
}

/** A turn (one assistant response plus its tool calls) starts. */
export interface TurnStartEvent {
  readonly type: "turn_start";
}

/** A turn ends. */
export interface TurnEndEvent {
  readonly type: "turn_end";
  readonly message: AgentMessage;
  readonly toolResults: readonly ToolResultMessage[];
}

/** A message starts (the first prompt of a 1.x session first emits the `system` message). */
export interface MessageStartEvent {
  readonly type: "message_start";
  readonly message: AgentMessage;
}

/** A streaming step of the current assistant message. */
export interface MessageUpdateEvent {
  readonly type: "message_update";
  readonly assistantMessageEvent: AssistantMessageEvent;
  /** Cumulative usage so far. 1.x only. */
  readonly usage?: Usage;
  /** Cumulative message so far. 0.73.1 only; quadratic, ignore it. */
  readonly message?: AgentMessage;
}

/** A message is complete; its `message` is authoritative. */
export interface MessageEndEvent {
  readonly type: "message_end";
  readonly message: AgentMessage;
}

/** Output of a direct `bash` command, streamed in full even when the response truncates. 1.x only. */
export interface BashExecutionUpdateEvent {
  readonly type: "bash_execution_update";
  /** The `bash` command's id, when it had one. */
  readonly id?: CommandId;
  readonly delta: string;
}

/** A tool's result (or partial result), as the tool produced it; pi does not check it. */
export interface ToolExecutionResult {
  readonly content?: readonly (TextContent | ImageContent)[];
  readonly details?: unknown;
  /** Machine-readable result, for example bash's `{output, truncated, exit_code, wall_time_seconds}`. 1.x only. */
  readonly structuredContent?: unknown;
}

/** A tool starts executing. */
export interface ToolExecutionStartEvent {
  readonly type: "tool_execution_start";
  readonly toolCallId: string;
  readonly toolName: string;
  readonly args: unknown;
  /** Set on calls another tool made (nested calls). 1.x only. */
  readonly parentToolCallId?: string;
}

/** A tool reports progress; `partialResult` is cumulative, so replace, don't append. */
export interface ToolExecutionUpdateEvent {
  readonly type: "tool_execution_update";
  readonly toolCallId: string;
  readonly toolName: string;
  readonly args: unknown;
  readonly partialResult: ToolExecutionResult;
  /** 1.x only. */
  readonly parentToolCallId?: string;
}

/** A tool finished. */
export interface ToolExecutionEndEvent {
  readonly type: "tool_execution_end";
  readonly toolCallId: string;
  readonly toolName: string;
  readonly result: ToolExecutionResult;
  readonly isError: boolean;
  /** Execution time; absent when the tool did not run. 1.x only. */
  readonly durationMs?: number;
  /** 1.x only. */
  readonly parentToolCallId?: string;
}

/** The steering/follow-up queues changed; always the complete queues, not a diff. */
export interface QueueUpdateEvent {
  readonly type: "queue_update";
  readonly steering: readonly string[];
  readonly followUp: readonly string[];
}

/** Compaction starts. */
export interface CompactionStartEvent {
  readonly type: "compaction_start";
  readonly reason: CompactionReason;
}

/** Compaction ends, successfully or not. */
export interface CompactionEndEvent {
  readonly type: "compaction_end";
  readonly reason: CompactionReason;
  /** Absent when compaction failed or was aborted. */
  readonly result?: CompactionResult;
  readonly aborted: boolean;
  readonly willRetry: boolean;
  readonly errorMessage?: string;
}

/** An automatic retry is scheduled after a transient error. */
export interface AutoRetryStartEvent {
  readonly type: "auto_retry_start";
  readonly attempt: number;
  readonly maxAttempts: number;
  readonly delayMs: number;
  readonly errorMessage: string;
}

/** Automatic retrying ended, successfully or after the last attempt. */
export interface AutoRetryEndEvent {
  readonly type: "auto_retry_end";
  readonly success: boolean;
  readonly attempt: number;
  readonly finalError?: string;
}

/** A compaction or branch-summary request failed transiently and will be retried. 1.x only. */
export interface SummarizationRetryScheduledEvent {
  readonly type: "summarization_retry_scheduled";
  readonly attempt: number;
  readonly maxAttempts: number;
  readonly delayMs: number;
  readonly errorMessage: string;
}

/** A retried summarisation request starts. 1.x only. */
export interface SummarizationRetryAttemptStartEvent {
  readonly type: "summarization_retry_attempt_start";
  readonly source: "branchSummary" | "compaction";
  /** Present when `source` is `compaction`. */
  readonly reason?: CompactionReason;
}

/** The summarisation retry loop ended. 1.x only. */
export interface SummarizationRetryFinishedEvent {
  readonly type: "summarization_retry_finished";
}

/** An extension threw; the operation that triggered it usually still succeeds. */
export interface ExtensionErrorEvent {
  readonly type: "extension_error";
  /** The extension's path, or `command:<name>` for a slash command. */
  readonly extensionPath: string;
  /** The extension event that threw, for example `tool_call` or `command`. */
  readonly event: string;
  readonly error: string;
}

/** An entry was appended to the session. 1.x only. */
export interface EntryAppendedEvent {
  readonly type: "entry_appended";
  readonly entry: SessionEntry;
}

/** The session name changed (`set_session_name`). */
export interface SessionInfoChangedEvent {
  readonly type: "session_info_changed";
  /** Absent when the name was cleared. */
  readonly name?: string;
}

/** The thinking level changed (also on `set_model` in 0.73.1). */
export interface ThinkingLevelChangedEvent {
  readonly type: "thinking_level_changed";
  readonly level: ThinkingLevel;
}

/** Any known event, discriminated on `type` (24). */
export type RpcEvent =
  | AgentStartEvent
  | AgentEndEvent
  | AgentSettledEvent
  | TurnStartEvent
  | TurnEndEvent
  | MessageStartEvent
  | MessageUpdateEvent
  | MessageEndEvent
  | BashExecutionUpdateEvent
  | ToolExecutionStartEvent
  | ToolExecutionUpdateEvent
  | ToolExecutionEndEvent
  | QueueUpdateEvent
  | CompactionStartEvent
  | CompactionEndEvent
  | AutoRetryStartEvent
  | AutoRetryEndEvent
  | SummarizationRetryScheduledEvent
  | SummarizationRetryAttemptStartEvent
  | SummarizationRetryFinishedEvent
  | ExtensionErrorEvent
  | EntryAppendedEvent
  | SessionInfoChangedEvent
  | ThinkingLevelChangedEvent;

/** The `type` of a known {@link RpcEvent}. */
export type RpcEventType = RpcEvent["type"];

/** The event whose `type` is `T`. */
export type EventOf<T extends RpcEventType> = Extract<RpcEvent, { readonly type: T }>;
