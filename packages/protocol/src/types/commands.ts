/**
 * Commands: every record a client writes to pi's stdin except extension-UI responses.
 * pi validates none of them, so check with `validateCommand` before sending.
 */
import type { ImageContent } from "./content.ts";
import type { QueueMode, StreamingBehavior, ThinkingLevel } from "./model.ts";

/** Every command `type` pi 1.x understands (33). Four are 1.x only: see `COMMANDS_ADDED_IN_V1`. */
export const CommandType = {
  Prompt: "prompt",
  Steer: "steer",
  FollowUp: "follow_up",
  Abort: "abort",
  /** 1.x only. */
  ClearQueue: "clear_queue",
  NewSession: "new_session",
  GetState: "get_state",
  GetMessages: "get_messages",
  SetModel: "set_model",
  CycleModel: "cycle_model",
  GetAvailableModels: "get_available_models",
  SetThinkingLevel: "set_thinking_level",
  CycleThinkingLevel: "cycle_thinking_level",
  /** 1.x only. */
  GetAvailableThinkingLevels: "get_available_thinking_levels",
  SetSteeringMode: "set_steering_mode",
  SetFollowUpMode: "set_follow_up_mode",
  Compact: "compact",
  SetAutoCompaction: "set_auto_compaction",
  SetAutoRetry: "set_auto_retry",
  AbortRetry: "abort_retry",
  Bash: "bash",
  AbortBash: "abort_bash",
  GetSessionStats: "get_session_stats",
  ExportHtml: "export_html",
  SwitchSession: "switch_session",
  Fork: "fork",
  Clone: "clone",
  GetForkMessages: "get_fork_messages",
  /** 1.x only. */
  GetEntries: "get_entries",
  /** 1.x only. */
  GetTree: "get_tree",
  GetLastAssistantText: "get_last_assistant_text",
  SetSessionName: "set_session_name",
  GetCommands: "get_commands",
} as const;
/** Every command `type` pi 1.x understands. */
export type CommandType = (typeof CommandType)[keyof typeof CommandType];

/** A command id; pi echoes it, with its JSON type, on the command's own response only. */
export type CommandId = string | number;

/** Fields every command has. */
interface CommandBase<T extends CommandType> {
  readonly type: T;
  /** Correlates the response; pi preserves its type (`42` comes back as `42`). */
  readonly id?: CommandId;
}

/** Sends a user message and starts a run (or queues it while streaming, given `streamingBehavior`). */
export interface PromptCommand extends CommandBase<"prompt"> {
  /** The text; may start with `/` to invoke a slash command. May be empty. */
  readonly message: string;
  readonly images?: readonly ImageContent[];
  /** Required while the agent is streaming, or pi answers "Agent is already processing". */
  readonly streamingBehavior?: StreamingBehavior;
}

/** Queues a message delivered after the current tool calls, before the next model call. */
export interface SteerCommand extends CommandBase<"steer"> {
  readonly message: string;
  readonly images?: readonly ImageContent[];
}

/** Queues a message delivered when the agent would otherwise stop. */
export interface FollowUpCommand extends CommandBase<"follow_up"> {
  readonly message: string;
  readonly images?: readonly ImageContent[];
}

/** Aborts the run; answered only after agent_end (and agent_settled on 1.x). Queued messages survive. */
export interface AbortCommand extends CommandBase<"abort"> {}

/** Empties both queues and returns what was removed. 1.x only. */
export interface ClearQueueCommand extends CommandBase<"clear_queue"> {}

/** Starts a fresh session. */
export interface NewSessionCommand extends CommandBase<"new_session"> {
  /** Records this path as the parent session. */
  readonly parentSession?: string;
}

/** Reads model, modes, streaming flags and counts; the usual readiness probe. */
export interface GetStateCommand extends CommandBase<"get_state"> {}

/** Reads every message of the session (including the system message on 1.x). */
export interface GetMessagesCommand extends CommandBase<"get_messages"> {}

/** Switches model. 0.73.1 also persists it as the global default. */
export interface SetModelCommand extends CommandBase<"set_model"> {
  readonly provider: string;
  readonly modelId: string;
}

/** Switches to the next available (or scoped) model. */
export interface CycleModelCommand extends CommandBase<"cycle_model"> {}

/** Lists the models pi can use. */
export interface GetAvailableModelsCommand extends CommandBase<"get_available_models"> {}

/** Sets the thinking level, clamped to the model's levels. 0.73.1 also persists it. */
export interface SetThinkingLevelCommand extends CommandBase<"set_thinking_level"> {
  readonly level: ThinkingLevel;
}

/** Moves to the model's next thinking level. */
export interface CycleThinkingLevelCommand extends CommandBase<"cycle_thinking_level"> {}

/** Lists the thinking levels the current model supports. 1.x only. */
export interface GetAvailableThinkingLevelsCommand
  extends CommandBase<"get_available_thinking_levels"> {}

/** Sets how steering messages drain. Persisted to the user's global settings. */
export interface SetSteeringModeCommand extends CommandBase<"set_steering_mode"> {
  readonly mode: QueueMode;
}

/** Sets how follow-up messages drain. Persisted to the user's global settings. */
export interface SetFollowUpModeCommand extends CommandBase<"set_follow_up_mode"> {
  readonly mode: QueueMode;
}

/** Compacts history now. On 1.x it aborts a running stream first and refuses tiny sessions. */
export interface CompactCommand extends CommandBase<"compact"> {
  readonly customInstructions?: string;
}

/** Turns automatic compaction on or off. Persisted globally. */
export interface SetAutoCompactionCommand extends CommandBase<"set_auto_compaction"> {
  readonly enabled: boolean;
}

/** Turns automatic retry on or off. Persisted globally. */
export interface SetAutoRetryCommand extends CommandBase<"set_auto_retry"> {
  readonly enabled: boolean;
}

/** Stops a pending automatic retry. */
export interface AbortRetryCommand extends CommandBase<"abort_retry"> {}

/** Runs a shell command in pi's cwd; 1.x streams `bash_execution_update` events tagged with `id`. */
export interface BashCommand extends CommandBase<"bash"> {
  /** Never omit it: pi would run the literal command `undefined`. */
  readonly command: string;
  /** Keep the output out of the model's context. Ignored by 0.73.1. */
  readonly excludeFromContext?: boolean;
}

/** Cancels the running `bash` command. */
export interface AbortBashCommand extends CommandBase<"abort_bash"> {}

/** Reads message, token and cost totals. */
export interface GetSessionStatsCommand extends CommandBase<"get_session_stats"> {}

/** Writes the session as HTML; the default path is relative to pi's cwd. */
export interface ExportHtmlCommand extends CommandBase<"export_html"> {
  readonly outputPath?: string;
}

/** Opens another session file (a missing path creates a new session there). */
export interface SwitchSessionCommand extends CommandBase<"switch_session"> {
  readonly sessionPath: string;
}

/** Starts a new branch at a user message; returns its text for the editor. */
export interface ForkCommand extends CommandBase<"fork"> {
  readonly entryId: string;
}

/** Copies the current branch into a new session. */
export interface CloneCommand extends CommandBase<"clone"> {}

/** Lists the user messages `fork` can start from. */
export interface GetForkMessagesCommand extends CommandBase<"get_fork_messages"> {}

/** Reads session entries, optionally only those after entry `since`. 1.x only. */
export interface GetEntriesCommand extends CommandBase<"get_entries"> {
  readonly since?: string;
}

/** Reads the whole entry tree. 1.x only. */
export interface GetTreeCommand extends CommandBase<"get_tree"> {}

/** Reads the text of the last assistant message. */
export interface GetLastAssistantTextCommand extends CommandBase<"get_last_assistant_text"> {}

/** Names the session; emits `session_info_changed`. */
export interface SetSessionNameCommand extends CommandBase<"set_session_name"> {
  /** Must not be blank. */
  readonly name: string;
}

/** Lists slash commands (extensions, prompt templates, skills). */
export interface GetCommandsCommand extends CommandBase<"get_commands"> {}

/** Any command, discriminated on `type`. */
export type RpcCommand =
  | PromptCommand
  | SteerCommand
  | FollowUpCommand
  | AbortCommand
  | ClearQueueCommand
  | NewSessionCommand
  | GetStateCommand
  | GetMessagesCommand
  | SetModelCommand
  | CycleModelCommand
  | GetAvailableModelsCommand
  | SetThinkingLevelCommand
  | CycleThinkingLevelCommand
  | GetAvailableThinkingLevelsCommand
  | SetSteeringModeCommand
  | SetFollowUpModeCommand
  | CompactCommand
  | SetAutoCompactionCommand
  | SetAutoRetryCommand
  | AbortRetryCommand
  | BashCommand
  | AbortBashCommand
  | GetSessionStatsCommand
  | ExportHtmlCommand
  | SwitchSessionCommand
  | ForkCommand
  | CloneCommand
  | GetForkMessagesCommand
  | GetEntriesCommand
  | GetTreeCommand
  | GetLastAssistantTextCommand
  | SetSessionNameCommand
  | GetCommandsCommand;

/** The command whose `type` is `T`. */
export type CommandOf<T extends CommandType> = Extract<RpcCommand, { readonly type: T }>;
