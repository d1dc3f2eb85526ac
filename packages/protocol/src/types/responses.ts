/**
 * Responses: pi's answer to each command, correlated by the command's `id`.
 */
import type { CommandId, CommandType } from "./commands.ts";
import type { AgentMessage } from "./messages.ts";
import type { Model, ThinkingLevel } from "./model.ts";
import type {
  BashResult,
  CompactionResult,
  ForkMessage,
  SessionEntry,
  SessionState,
  SessionStats,
  SessionTreeNode,
  SlashCommand,
} from "./session.ts";

/** How an accepted prompt was dispatched: a run started, it was queued, or a command handled it (no run). */
export type PromptDisposition = "started" | "queued" | "handled";

/** How an accepted steer or follow-up was dispatched. */
export type QueuedInputDisposition = "queued" | "handled";

/**
 * The `data` of each command's success response; `undefined` means the response has no `data` key.
 * Corrects pi's own declarations where the wire differs (`set_model`, `get_last_assistant_text`).
 */
export interface CommandResponseData {
  /** Absent on 0.73.1. A `handled` prompt never starts a run, so no agent_settled follows. */
  prompt: { readonly disposition: PromptDisposition } | undefined;
  /** Absent on 0.73.1. */
  steer: { readonly disposition: QueuedInputDisposition } | undefined;
  /** Absent on 0.73.1. */
  follow_up: { readonly disposition: QueuedInputDisposition } | undefined;
  abort: undefined;
  /** The removed messages, to restore into an editor. 1.x only. */
  clear_queue: { readonly steering: readonly string[]; readonly followUp: readonly string[] };
  new_session: { readonly cancelled: boolean };
  get_state: SessionState;
  /** Includes the `system` message on 1.x. */
  get_messages: { readonly messages: readonly AgentMessage[] };
  /** The full model (pi's `RpcClient` wrongly declares `{provider, id}`). */
  set_model: Model;
  /** `null` when there is only one model to cycle through. */
  cycle_model: {
    readonly model: Model;
    readonly thinkingLevel: ThinkingLevel;
    readonly isScoped: boolean;
  } | null;
  /** Full models (pi's `RpcClient` wrongly declares a `ModelInfo[]`). */
  get_available_models: { readonly models: readonly Model[] };
  set_thinking_level: undefined;
  /** `null` for a model without reasoning. */
  cycle_thinking_level: { readonly level: ThinkingLevel } | null;
  /** 1.x only. */
  get_available_thinking_levels: { readonly levels: readonly ThinkingLevel[] };
  set_steering_mode: undefined;
  set_follow_up_mode: undefined;
  compact: CompactionResult;
  set_auto_compaction: undefined;
  set_auto_retry: undefined;
  abort_retry: undefined;
  bash: BashResult;
  abort_bash: undefined;
  get_session_stats: SessionStats;
  /** The default path is relative to pi's cwd. */
  export_html: { readonly path: string };
  switch_session: { readonly cancelled: boolean };
  fork: { readonly text: string; readonly cancelled: boolean };
  clone: { readonly cancelled: boolean };
  get_fork_messages: { readonly messages: readonly ForkMessage[] };
  /** 1.x only. */
  get_entries: { readonly entries: readonly SessionEntry[]; readonly leafId: string | null };
  /** 1.x only. */
  get_tree: { readonly tree: readonly SessionTreeNode[]; readonly leafId: string | null };
  /** pi sends `{}` (not the documented `{text: null}`) when there is no assistant text. */
  get_last_assistant_text: { readonly text?: string | null };
  set_session_name: undefined;
  get_commands: { readonly commands: readonly SlashCommand[] };
}

/** The `data` property of a success response: optional when it can be absent. */
type DataField<D> = undefined extends D ? { readonly data?: D } : { readonly data: D };

/** A success response to a command of type `C` (a union of responses when `C` is a union). */
export type RpcSuccessResponse<C extends CommandType = CommandType> = {
  [K in C]: {
    readonly type: "response";
    /** The command's id, absent when the command had none. */
    readonly id?: CommandId;
    readonly command: K;
    readonly success: true;
  } & DataField<CommandResponseData[K]>;
}[C];

/**
 * A failure response. `command` is the command's type, `parse` for unparsable input, or absent
 * (for a JSON array). `id` is absent for parse errors and, on 0.73.1, for unknown commands.
 */
export interface RpcFailureResponse {
  readonly type: "response";
  readonly id?: CommandId;
  readonly command?: string;
  readonly success: false;
  /** Human-readable message, for example `Unknown command: frobnicate`. */
  readonly error: string;
}

/**
 * Any response to a known command, or any failure. A success response to a command type this
 * package does not know is not an `RpcResponse`: `parseInbound` passes it through as `unknown`.
 */
export type RpcResponse = RpcSuccessResponse | RpcFailureResponse;
