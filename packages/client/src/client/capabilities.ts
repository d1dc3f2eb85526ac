import type { CommandType } from "@pi-kit/protocol";

/** The pi release line a client talks to: 0.73.x (`@mariozechner`) or 1.x (`@earendil-works`). */
export type PiVersionLine = "0.73" | "1";

/** What the connected pi can do, detected at connect time. */
export interface PiCapabilities {
  /** The release line. */
  readonly versionLine: PiVersionLine;
  /** Every command type the connected pi understands. */
  readonly commands: ReadonlySet<CommandType>;
  /** `prompt`, `steer` and `follow_up` answer with a `disposition` (1.x). */
  readonly promptDisposition: boolean;
  /** pi emits `agent_settled` when a run is truly over (1.x). */
  readonly agentSettled: boolean;
  /** `bash` streams `bash_execution_update` deltas (1.x). */
  readonly bashStreaming: boolean;
  /** True when the line was detected by probing rather than assumed or given. */
  readonly detected: boolean;
  /** Whether the connected pi understands `command`. */
  supports(command: string): boolean;
}

/** The 33 command types of pi 1.x, in pi's RpcClient order. */
export const ALL_COMMANDS: readonly CommandType[] = [
  "prompt",
  "steer",
  "follow_up",
  "abort",
  "clear_queue",
  "new_session",
  "get_state",
  "get_messages",
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
  "get_commands",
];

/** Commands 0.73.x answers with `Unknown command`. */
export const COMMANDS_MISSING_IN_073: ReadonlySet<CommandType> = new Set<CommandType>([
  "clear_queue",
  "get_entries",
  "get_tree",
  "get_available_thinking_levels",
]);

const KNOWN: ReadonlySet<string> = new Set(ALL_COMMANDS);

/** The capabilities of a release line. */
export function capabilitiesFor(versionLine: PiVersionLine, detected = false): PiCapabilities {
  const v1 = versionLine === "1";
  const commands = new Set(
    v1 ? ALL_COMMANDS : ALL_COMMANDS.filter((c) => !COMMANDS_MISSING_IN_073.has(c)),
  );
  return {
    versionLine,
    commands,
    promptDisposition: v1,
    agentSettled: v1,
    bashStreaming: v1,
    detected,
    // Types outside the catalog pass: a raw `send` may target a newer pi, which answers for itself.
    supports: (command) => commands.has(command as CommandType) || !KNOWN.has(command),
  };
}
