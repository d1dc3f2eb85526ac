/**
 * Agent messages of every role, as they appear in events, `get_messages` and session entries.
 */
import type { AssistantContent, ImageContent, TextContent, UserContent } from "./content.ts";
import type { ThinkingLevel, Usage } from "./model.ts";

/**
 * Why an assistant message ended. `pending` (1.x only) marks a message that is still streaming;
 * 0.73.1 writes a misleading `stop` on the streaming `message_start`. `deferred` is 1.x only.
 */
export type StopReason =
  | "pending"
  | "stop"
  | "length"
  | "toolUse"
  | "error"
  | "aborted"
  | "deferred";

/** A tool declaration carried by a system message. */
export interface ToolDeclaration {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments. */
  readonly parameters: unknown;
}

/**
 * System instructions and tool declarations at one point of the transcript. 1.x only.
 * The first prompt of every session emits one (about 5 KB); later ones amend sections and tools.
 */
export interface SystemMessage {
  readonly role: "system";
  /** Instruction text (empty on the leading message when everything is in `sections`). */
  readonly content: string | readonly TextContent[];
  /** Named prompt sections; a later message replaces a section by name, `null` removes it. */
  readonly sections?: Readonly<Record<string, string | null>>;
  /** Tools that become available at this point. */
  readonly toolsAdded?: readonly ToolDeclaration[];
  /** Tools that stop being available at this point. */
  readonly toolsRemoved?: readonly { readonly name: string }[];
  readonly timestamp: number;
}

/** A message typed (or queued) by the user. */
export interface UserMessage {
  readonly role: "user";
  readonly content: string | readonly UserContent[];
  /** Milliseconds since the epoch. */
  readonly timestamp: number;
}

/** A problem the provider layer recorded on an assistant message. */
export interface AssistantMessageDiagnostic {
  readonly type: string;
  readonly timestamp: number;
  readonly error?: {
    readonly name?: string;
    readonly message: string;
    readonly stack?: string;
    readonly code?: string | number;
  };
  readonly details?: Readonly<Record<string, unknown>>;
}

/** A model response. The one in `message_end` is authoritative; streamed deltas only preview it. */
export interface AssistantMessage {
  readonly role: "assistant";
  readonly content: readonly AssistantContent[];
  readonly api: string;
  readonly provider: string;
  readonly model: string;
  readonly responseModel?: string;
  readonly responseId?: string;
  readonly usage: Usage;
  readonly stopReason: StopReason;
  /** Set when `stopReason` is `error` or `aborted`, for example `Request was aborted`. */
  readonly errorMessage?: string;
  readonly diagnostics?: readonly AssistantMessageDiagnostic[];
  /** Provider-native effort level used. 1.x only. */
  readonly providerThinkingLevel?: string;
  /** pi thinking level requested for this response. 1.x only. */
  readonly thinkingLevel?: ThinkingLevel;
  /** The provider's own stop reason. 1.x only. */
  readonly rawStopReason?: string;
  /** Whether the provider said the model ended its turn. 1.x only. */
  readonly endTurn?: boolean;
  /** Handle of a deferred (batch) response. 1.x only. */
  readonly deferred?: Readonly<Record<string, unknown>>;
  /** Milliseconds since the epoch when the request started. */
  readonly timestamp: number;
  /** Request duration in milliseconds. 1.x only. */
  readonly durationMs?: number;
}

/** One call a tool made to another tool (for example from a codemode script). 1.x only. */
export interface NestedToolCallRecord {
  readonly id: string;
  readonly name: string;
  readonly arguments?: Readonly<Record<string, unknown>>;
  readonly argumentsBytes?: number;
  readonly status: "ok" | "error" | "unfinished";
  readonly durationMs?: number;
  readonly error?: string;
}

/** The result of a tool call, fed back to the model. */
export interface ToolResultMessage {
  readonly role: "toolResult";
  readonly toolCallId: string;
  readonly toolName: string;
  readonly content: readonly UserContent[];
  /** Tool-specific structured data for UIs; not sent to the model. */
  readonly details?: unknown;
  readonly isError: boolean;
  readonly timestamp: number;
  /** Usage of the tool execution itself. 1.x only. */
  readonly usage?: Usage;
  /** Calls this tool made to other tools. 1.x only. */
  readonly nestedCalls?: {
    readonly calls: readonly NestedToolCallRecord[];
    readonly complete: boolean;
  };
  /** Execution time in milliseconds. 1.x only. */
  readonly durationMs?: number;
}

/**
 * A shell command run through the RPC `bash` command (or `!` in the TUI). It appears in
 * `get_messages` and session entries but never in message_start/message_end events.
 */
export interface BashExecutionMessage {
  readonly role: "bashExecution";
  readonly command: string;
  readonly output: string;
  /** Absent when the command was cancelled. */
  readonly exitCode?: number;
  readonly cancelled: boolean;
  readonly truncated: boolean;
  readonly fullOutputPath?: string;
  readonly timestamp: number;
  /** True when the output is kept out of the model's context. */
  readonly excludeFromContext?: boolean;
}

/** A message injected by an extension through `sendMessage()`. */
export interface CustomMessage {
  readonly role: "custom";
  readonly customType: string;
  readonly content: string | readonly (TextContent | ImageContent)[];
  /** Whether a UI should show it. */
  readonly display: boolean;
  readonly details?: unknown;
  readonly timestamp: number;
}

/** Summary of a branch the conversation came back from. */
export interface BranchSummaryMessage {
  readonly role: "branchSummary";
  readonly summary: string;
  /** Entry the branch left from; may be `null` on 1.x. */
  readonly fromId: string | null;
  readonly timestamp: number;
}

/** Summary that replaced compacted history. */
export interface CompactionSummaryMessage {
  readonly role: "compactionSummary";
  readonly summary: string;
  readonly tokensBefore: number;
  readonly timestamp: number;
}

/**
 * Any message pi can write. Later versions may add roles: switch on `role` with a default branch
 * (see `MESSAGE_ROLES`) rather than assuming this union is closed.
 */
export type AgentMessage =
  | SystemMessage
  | UserMessage
  | AssistantMessage
  | ToolResultMessage
  | BashExecutionMessage
  | CustomMessage
  | BranchSummaryMessage
  | CompactionSummaryMessage;

/** The `role` of a known {@link AgentMessage}. */
export type MessageRole = AgentMessage["role"];
