import { COMMAND_TYPES, COMMANDS_ADDED_IN_V1, type CommandType } from "@pi-kit/protocol";

/**
 * The pi release line a client talks to: `"0.73"` for `@mariozechner/pi-coding-agent` 0.73.x,
 * which lacks the newer commands, and `"1"` for every `@earendil-works/pi-coding-agent` release
 * (0.8x, 0.99, 1.x). Capabilities are detected one by one; the line is only a summary.
 */
export type PiVersionLine = "0.73" | "1";

/**
 * What the connected pi can do. The handshake gives a first answer; each capability is then
 * confirmed or corrected by what pi actually sends, so `client.capabilities` can change once.
 */
export interface PiCapabilities {
  /** The release line (see {@link PiVersionLine}). */
  readonly versionLine: PiVersionLine;
  /** Every command type the connected pi understands, as far as known (an `Unknown command` answer removes one). */
  readonly commands: ReadonlySet<CommandType>;
  /**
   * `prompt`, `steer` and `follow_up` answer with a `disposition` (pi 0.99 on); `undefined` until
   * pi answered one of them.
   */
  readonly promptDisposition: boolean | undefined;
  /** pi announces a run's end with `agent_settled` (pi 0.80.4 on); without it the client probes `get_state`. */
  readonly agentSettled: boolean;
  /**
   * `agent_settled` says whether the run was aborted (pi 1.1 on); `undefined` until the first one.
   * Without it `aborted` comes from the last assistant message's `stopReason`.
   */
  readonly settledAborted: boolean | undefined;
  /** `bash` streams `bash_execution_update` deltas (pi 0.82 on). */
  readonly bashStreaming: boolean;
  /** True when the handshake probed pi rather than taking the line from the options. */
  readonly detected: boolean;
  /** Whether the connected pi understands `command`; a type outside the catalog is assumed to be (raw `send`). */
  supports(command: string): boolean;
}

/** The 33 command types of pi 1.x (the protocol's catalog). */
export const ALL_COMMANDS: readonly CommandType[] = COMMAND_TYPES;

/** Commands 0.73.x answers with `Unknown command`. */
export const COMMANDS_MISSING_IN_073: ReadonlySet<CommandType> = new Set<CommandType>(
  COMMANDS_ADDED_IN_V1,
);

/** What each release line is assumed to do before pi has shown it. */
export function capabilitiesFor(versionLine: PiVersionLine, detected = false): PiCapabilities {
  const v1 = versionLine === "1";
  return build({
    versionLine,
    commands: new Set(
      v1 ? ALL_COMMANDS : ALL_COMMANDS.filter((c) => !COMMANDS_MISSING_IN_073.has(c)),
    ),
    unknown: new Set(),
    promptDisposition: v1 ? undefined : false,
    agentSettled: v1,
    settledAborted: v1 ? undefined : false,
    bashStreaming: v1,
    detected,
  });
}

/** The parts of {@link PiCapabilities} that are data, plus the foreign types pi refused. */
interface Facts extends Omit<PiCapabilities, "supports" | "commands"> {
  readonly commands: Set<CommandType>;
  readonly unknown: Set<string>;
}

const KNOWN: ReadonlySet<string> = new Set(ALL_COMMANDS);

// Snapshots copy the sets, so one handed out never changes under its holder.
function build(facts: Facts): PiCapabilities {
  const { unknown: refused, commands: known, ...flags } = facts;
  const commands: ReadonlySet<CommandType> = new Set(known);
  const unknown: ReadonlySet<string> = new Set(refused);
  return {
    ...flags,
    commands,
    supports: (command) =>
      KNOWN.has(command) ? commands.has(command as CommandType) : !unknown.has(command),
  };
}

/**
 * The client's running knowledge of pi's capabilities: each `learn*` records what pi just sent
 * and replaces the snapshot when that changed something.
 */
export class CapabilityTracker {
  #facts: Facts;
  #snapshot: PiCapabilities;

  constructor(initial: PiCapabilities) {
    this.#facts = { ...initial, commands: new Set(initial.commands), unknown: new Set() };
    this.#snapshot = initial;
  }

  /** The current capabilities (the same object until something is learned). */
  get current(): PiCapabilities {
    return this.#snapshot;
  }

  /** Replaces everything, after the handshake probed the line. */
  reset(capabilities: PiCapabilities): void {
    this.#facts = { ...capabilities, commands: new Set(capabilities.commands), unknown: new Set() };
    this.#snapshot = capabilities;
  }

  /** pi answered `prompt`, `steer` or `follow_up`, with or without a disposition. */
  learnDisposition(present: boolean): void {
    this.#update("promptDisposition", present);
  }

  /** pi sent `agent_settled`, with or without its `aborted` field. */
  learnSettled(withAborted: boolean): void {
    this.#update("agentSettled", true);
    this.#update("settledAborted", withAborted);
  }

  /** pi streamed bash output (`true`), or answered a bash call with output but streamed none. */
  learnBashStreaming(streams: boolean): void {
    this.#update("bashStreaming", streams);
  }

  /** pi answered `Unknown command` to `command`. */
  learnUnknown(command: string): void {
    if (KNOWN.has(command)) {
      if (!this.#facts.commands.delete(command as CommandType)) return;
    } else if (this.#facts.unknown.has(command)) return;
    else this.#facts.unknown.add(command);
    this.#snapshot = build(this.#facts);
  }

  #update<K extends "promptDisposition" | "agentSettled" | "settledAborted" | "bashStreaming">(
    key: K,
    value: Facts[K],
  ): void {
    if (this.#facts[key] === value) return;
    this.#facts = { ...this.#facts, [key]: value };
    this.#snapshot = build(this.#facts);
  }
}
