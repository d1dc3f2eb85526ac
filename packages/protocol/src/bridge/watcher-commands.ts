/**
 * What a connection that watches a session (another connection controls it) may still send.
 */
import type { CommandType } from "../types/commands.ts";

/**
 * The commands a watcher may send: queries, which change nothing in pi, so a watcher can load
 * and follow the session. Every other command, and every dialog answer, needs control.
 */
export const WATCHER_COMMANDS: ReadonlySet<CommandType> = new Set<CommandType>([
  "get_state",
  "get_available_models",
  "get_available_thinking_levels",
  "get_session_stats",
  "get_fork_messages",
  "get_entries",
  "get_tree",
  "get_last_assistant_text",
  "get_messages",
  "get_commands",
]);
