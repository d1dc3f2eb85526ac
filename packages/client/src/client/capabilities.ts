import { COMMAND_TYPES, COMMANDS_ADDED_IN_V1, type CommandType } from "@pi-kit/protocol";

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

/** The 33 command types of pi 1.x (the protocol's catalog). */
export const ALL_COMMANDS: readonly CommandType[] = COMMAND_TYPES;

/** Commands 0.73.x answers with `Unknown command`. */
export const COMMANDS_MISSING_IN_073: ReadonlySet<CommandType> = new Set<CommandType>(
  COMMANDS_ADDED_IN_V1,
);

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
