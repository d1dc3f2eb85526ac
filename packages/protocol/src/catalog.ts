/**
 * Runtime lists of the protocol's names, for tools and tests to enumerate. The compile-time
 * checks at the bottom fail the build when a list and its union type disagree.
 */
import type { CommandType } from "./types/commands.ts";
import type { RpcEventType } from "./types/events.ts";
import type { DialogMethod, FireAndForgetMethod, UiMethod } from "./types/extension-ui.ts";
import type { MessageRole } from "./types/messages.ts";
import type { QueueMode, StreamingBehavior, ThinkingLevel } from "./types/model.ts";

/** Every command type of pi 1.x (33), in pi's own order. */
export const COMMAND_TYPES = [
  "prompt",
  "steer",
  "follow_up",
  "abort",
  "clear_queue",
  "new_session",
  "get_state",
  "set_model",
  "cycle_model",
  "get_available_models",
  "set_thinking_level",
  "cycle_thinking_level",
  "get_available_thinking_levels",
  "set_steering_mode",
  "set_follow_up_mode",
  "compact",
  "set_auto_compaction",
  "set_auto_retry",
  "abort_retry",
  "bash",
  "abort_bash",
  "get_session_stats",
  "export_html",
  "switch_session",
  "fork",
  "clone",
  "get_fork_messages",
  "get_entries",
  "get_tree",
  "get_last_assistant_text",
  "set_session_name",
  "get_messages",
  "get_commands",
] as const satisfies readonly CommandType[];

/** Commands 0.73.1 answers with `Unknown command` (and without the id): probe them to detect 1.x. */
export const COMMANDS_ADDED_IN_V1 = [
  "clear_queue",
  "get_available_thinking_levels",
  "get_entries",
  "get_tree",
] as const satisfies readonly CommandType[];

/** Every known event type (24): the 21 documented plus three seen live. */
export const EVENT_TYPES = [
  "agent_start",
  "agent_end",
  "agent_settled",
  "turn_start",
  "turn_end",
  "message_start",
  "message_update",
  "message_end",
  "bash_execution_update",
  "tool_execution_start",
  "tool_execution_update",
  "tool_execution_end",
  "queue_update",
  "compaction_start",
  "compaction_end",
  "auto_retry_start",
  "auto_retry_end",
  "summarization_retry_scheduled",
  "summarization_retry_attempt_start",
  "summarization_retry_finished",
  "extension_error",
  "entry_appended",
  "session_info_changed",
  "thinking_level_changed",
] as const satisfies readonly RpcEventType[];

/** Events 0.73.1 never writes. */
export const EVENTS_ADDED_IN_V1 = [
  "agent_settled",
  "bash_execution_update",
  "entry_appended",
  "summarization_retry_scheduled",
  "summarization_retry_attempt_start",
  "summarization_retry_finished",
] as const satisfies readonly RpcEventType[];

/** Every extension-UI method (9), the same in 0.73.1 and 1.x. */
export const UI_METHODS = [
  "select",
  "confirm",
  "input",
  "editor",
  "notify",
  "setStatus",
  "setWidget",
  "setTitle",
  "set_editor_text",
] as const satisfies readonly UiMethod[];

/** UI methods that wait for an answer (4). */
export const DIALOG_METHODS = [
  "select",
  "confirm",
  "input",
  "editor",
] as const satisfies readonly DialogMethod[];

/** UI methods that need no answer (5). */
export const FIRE_AND_FORGET_METHODS = [
  "notify",
  "setStatus",
  "setWidget",
  "setTitle",
  "set_editor_text",
] as const satisfies readonly FireAndForgetMethod[];

/** Every thinking level, lowest first. `max` is 1.x only. */
export const THINKING_LEVELS = [
  "off",
  "minimal",
  "low",
  "medium",
  "high",
  "xhigh",
  "max",
] as const satisfies readonly ThinkingLevel[];

/** Steering and follow-up queue modes. */
export const QUEUE_MODES = ["all", "one-at-a-time"] as const satisfies readonly QueueMode[];

/** Values of `prompt.streamingBehavior`. */
export const STREAMING_BEHAVIORS = [
  "steer",
  "followUp",
] as const satisfies readonly StreamingBehavior[];

/** Every known message role. `system` is 1.x only. */
export const MESSAGE_ROLES = [
  "system",
  "user",
  "assistant",
  "toolResult",
  "bashExecution",
  "custom",
  "branchSummary",
  "compactionSummary",
] as const satisfies readonly MessageRole[];

const commandTypeSet: ReadonlySet<string> = new Set(COMMAND_TYPES);
const eventTypeSet: ReadonlySet<string> = new Set(EVENT_TYPES);
const uiMethodSet: ReadonlySet<string> = new Set(UI_METHODS);
const dialogMethodSet: ReadonlySet<string> = new Set(DIALOG_METHODS);

/** Whether `value` is a known command type. */
export function isCommandType(value: unknown): value is CommandType {
  return typeof value === "string" && commandTypeSet.has(value);
}

/** Whether `value` is a known event type. */
export function isEventType(value: unknown): value is RpcEventType {
  return typeof value === "string" && eventTypeSet.has(value);
}

/** Whether `value` is a known extension-UI method. */
export function isUiMethod(value: unknown): value is UiMethod {
  return typeof value === "string" && uiMethodSet.has(value);
}

/** Whether `value` is a UI method that waits for an answer. */
export function isDialogMethod(value: unknown): value is DialogMethod {
  return typeof value === "string" && dialogMethodSet.has(value);
}

// Compile-time proof that each list names every member of its union (`satisfies` above proves
// the converse). A missing member turns `true` into a type error naming it.
type Covers<Union, List extends readonly unknown[]> = [Exclude<Union, List[number]>] extends [never]
  ? true
  : Exclude<Union, List[number]>;
const coverage: [
  Covers<CommandType, typeof COMMAND_TYPES>,
  Covers<RpcEventType, typeof EVENT_TYPES>,
  Covers<UiMethod, typeof UI_METHODS>,
  Covers<DialogMethod, typeof DIALOG_METHODS>,
  Covers<FireAndForgetMethod, typeof FIRE_AND_FORGET_METHODS>,
  Covers<ThinkingLevel, typeof THINKING_LEVELS>,
  Covers<QueueMode, typeof QUEUE_MODES>,
  Covers<StreamingBehavior, typeof STREAMING_BEHAVIORS>,
  Covers<MessageRole, typeof MESSAGE_ROLES>,
] = [true, true, true, true, true, true, true, true, true];
void coverage;
