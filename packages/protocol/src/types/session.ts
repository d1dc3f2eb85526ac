/**
 * Session data carried by responses and events: entries, the entry tree, stats, state and results.
 */
import type { ImageContent, TextContent } from "./content.ts";
import type { AgentMessage, SystemMessage } from "./messages.ts";
import type { Model, QueueMode, ThinkingLevel, Usage } from "./model.ts";

/** Fields shared by every session entry. */
export interface SessionEntryBase {
  readonly type: string;
  /** Short hex id, unique within the session. */
  readonly id: string;
  /** The entry this one follows; `null` for the root. */
  readonly parentId: string | null;
  /** ISO 8601 time. */
  readonly timestamp: string;
}

/** A message appended to the conversation. */
export interface SessionMessageEntry extends SessionEntryBase {
  readonly type: "message";
  readonly message: AgentMessage;
}

/** The thinking level changed. */
export interface ThinkingLevelChangeEntry extends SessionEntryBase {
  readonly type: "thinking_level_change";
  readonly thinkingLevel: string;
}

/** The model changed. */
export interface ModelChangeEntry extends SessionEntryBase {
  readonly type: "model_change";
  readonly provider: string;
  readonly modelId: string;
}

/** Usage outside the conversation, for example cache warming. 1.x only. */
export interface UsageEntry extends SessionEntryBase {
  readonly type: "usage";
  readonly kind: string;
  readonly provider: string;
  readonly model: string;
  readonly usage: Usage;
  readonly note?: string;
}

/** History before `firstKeptEntryId` was replaced by `summary`. */
export interface CompactionEntry extends SessionEntryBase {
  readonly type: "compaction";
  readonly summary: string;
  readonly firstKeptEntryId: string;
  readonly tokensBefore: number;
  readonly details?: unknown;
  /** Usage of the summarising call. 1.x only. */
  readonly usage?: Usage;
  /** True when an extension produced the summary. */
  readonly fromHook?: boolean;
  /** Prompt and tool state at the compaction boundary. 1.x only. */
  readonly systemMessage?: SystemMessage;
}

/** Summary of an abandoned branch. */
export interface BranchSummaryEntry extends SessionEntryBase {
  readonly type: "branch_summary";
  readonly fromId: string;
  readonly summary: string;
  readonly details?: unknown;
  /** Usage of the summarising call. 1.x only. */
  readonly usage?: Usage;
  readonly fromHook?: boolean;
}

/** Extension data that does not take part in the model's context. */
export interface CustomEntry extends SessionEntryBase {
  readonly type: "custom";
  readonly customType: string;
  readonly data?: unknown;
}

/** An extension message that takes part in the model's context. */
export interface CustomMessageEntry extends SessionEntryBase {
  readonly type: "custom_message";
  readonly customType: string;
  readonly content: string | readonly (TextContent | ImageContent)[];
  readonly details?: unknown;
  readonly display: boolean;
}

/**
 * A branch-local edit of an earlier entry's model-visible content; `replacement: null` hides the
 * target from the model (seen live on failed attempts before an auto-retry). 1.x only.
 */
export interface ContextEditEntry extends SessionEntryBase {
  readonly type: "context_edit";
  readonly targetId: string;
  readonly replacement: { readonly content: unknown } | null;
}

/** A user label on an entry; a missing `label` clears it. */
export interface LabelEntry extends SessionEntryBase {
  readonly type: "label";
  readonly targetId: string;
  readonly label?: string;
}

/** Session metadata, such as the name set by `set_session_name`. */
export interface SessionInfoEntry extends SessionEntryBase {
  readonly type: "session_info";
  readonly name?: string;
}

/**
 * One entry of the append-only session tree. `usage` and `context_edit` are 1.x only; switch on
 * `type` with a default branch, as later versions may add entry types.
 */
export type SessionEntry =
  | SessionMessageEntry
  | ThinkingLevelChangeEntry
  | ModelChangeEntry
  | UsageEntry
  | CompactionEntry
  | BranchSummaryEntry
  | CustomEntry
  | CustomMessageEntry
  | ContextEditEntry
  | LabelEntry
  | SessionInfoEntry;

/** The `type` of a known {@link SessionEntry}. */
export type SessionEntryType = SessionEntry["type"];

/** The first line of a session file (never returned over RPC; see docs/session-format.md). */
export interface SessionHeader {
  readonly type: "session";
  readonly version?: number;
  readonly id: string;
  readonly timestamp: string;
  readonly cwd: string;
  readonly parentSession?: string;
}

/**
 * A node of `get_tree` (1.x only). A linear session is one deeply nested chain, so walk it
 * iteratively rather than recursively.
 */
export interface SessionTreeNode {
  readonly entry: SessionEntry;
  readonly children: readonly SessionTreeNode[];
  /** Resolved label of the entry, if any. */
  readonly label?: string;
  /** Time of the latest label change, if any. */
  readonly labelTimestamp?: string;
}

/** How full the context window is. */
export interface ContextUsage {
  /** Estimated tokens, `null` when unknown (right after compaction). */
  readonly tokens: number | null;
  readonly contextWindow: number;
  /** Percentage of the window, `null` when `tokens` is unknown. */
  readonly percent: number | null;
}

/** `get_session_stats` data. */
export interface SessionStats {
  /** Absent under `--no-session`. */
  readonly sessionFile?: string;
  readonly sessionId: string;
  readonly userMessages: number;
  readonly assistantMessages: number;
  readonly toolCalls: number;
  readonly toolResults: number;
  readonly totalMessages: number;
  readonly tokens: {
    readonly input: number;
    readonly output: number;
    readonly cacheRead: number;
    readonly cacheWrite: number;
    readonly total: number;
  };
  /** Total cost so far. */
  readonly cost: number;
  readonly contextUsage?: ContextUsage;
}

/** `get_state` data. Same shape in 0.73.1 and 1.x. */
export interface SessionState {
  /** Absent when no model is configured. */
  readonly model?: Model;
  readonly thinkingLevel: ThinkingLevel;
  readonly isStreaming: boolean;
  readonly isCompacting: boolean;
  readonly steeringMode: QueueMode;
  readonly followUpMode: QueueMode;
  /** Absent under `--no-session` (but 0.73.1 sets a cwd-relative path after `new_session`). */
  readonly sessionFile?: string;
  readonly sessionId: string;
  readonly sessionName?: string;
  readonly autoCompactionEnabled: boolean;
  /** Counts the system message on 1.x, so it is one higher than on 0.73.1. */
  readonly messageCount: number;
  readonly pendingMessageCount: number;
}

/** Why a compaction ran. */
export type CompactionReason = "manual" | "threshold" | "overflow";

/** `compact` data and `compaction_end.result`. */
export interface CompactionResult {
  readonly summary: string;
  readonly firstKeptEntryId: string;
  readonly tokensBefore: number;
  /** Estimated context size after compaction. 1.x only. */
  readonly estimatedTokensAfter?: number;
  /** Usage of the summarising call. 1.x only. */
  readonly usage?: Usage;
  readonly details?: unknown;
}

/** `bash` data. stderr is merged into `output`. */
export interface BashResult {
  /** Combined output; when `truncated`, only the tail. */
  readonly output: string;
  /** Absent (not `null`) when the command was cancelled. */
  readonly exitCode?: number;
  readonly cancelled: boolean;
  readonly truncated: boolean;
  /** Temp file with the full output, when truncated. */
  readonly fullOutputPath?: string;
}

/** A user message that `fork` can start from (`get_fork_messages`). */
export interface ForkMessage {
  readonly entryId: string;
  readonly text: string;
}

/** Where a slash command comes from. `builtin` (1.x, e.g. `llama`, `mcp`) was seen live but is not in pi's types. */
export type SlashCommandSource = "extension" | "prompt" | "skill" | "builtin";

/** Where the resource defining a slash command lives. */
export interface SourceInfo {
  readonly path: string;
  readonly source: string;
  readonly scope: "user" | "project" | "temporary";
  readonly origin: "package" | "top-level";
  readonly baseDir?: string;
  /** 1.x only. */
  readonly changelogPath?: string;
}

/** A command the user can invoke with `/name` through `prompt` (`get_commands`). */
export interface SlashCommand {
  /** Name without the leading slash; skills are `skill:<name>`. */
  readonly name: string;
  readonly description?: string;
  readonly source: SlashCommandSource;
  readonly sourceInfo?: SourceInfo;
}
