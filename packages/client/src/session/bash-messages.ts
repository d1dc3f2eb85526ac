/**
 * The `bashExecution` messages of direct `bash` calls. pi adds one to its transcript without any
 * event (no `message_start`/`message_end`): at once when idle, and for a call made during a run
 * when that run ends (before `agent_settled`; pi 0.73.x before the next prompt instead). The
 * client builds the same message from the call and its result; only `timestamp` is unknown (pi
 * stamps it with its own clock), so the client's message is provisional until a resync brings
 * pi's copy, and merges recognise the two as one.
 */
import type { AgentMessage, BashExecutionMessage, BashResult, CommandId } from "@pi-kit/protocol";
import { sameValue } from "./resync-merge.ts";

/** A direct bash call's `bashExecution` message, with the id of the call that made it. */
export interface BashRecord {
  readonly id: CommandId;
  readonly message: AgentMessage;
}

/** The message pi records for a direct bash call (`timestamp` is this client's clock). */
export function bashExecutionMessage(
  command: string,
  result: BashResult,
  excludeFromContext: boolean | undefined,
): BashExecutionMessage {
  return {
    role: "bashExecution",
    command,
    output: result.output,
    // pi copies these from the result; absent ones (no exit code when cancelled) stay absent.
    ...(result.exitCode === undefined ? {} : { exitCode: result.exitCode }),
    cancelled: result.cancelled,
    truncated: result.truncated,
    ...(result.fullOutputPath === undefined ? {} : { fullOutputPath: result.fullOutputPath }),
    timestamp: Date.now(),
    ...(excludeFromContext === undefined ? {} : { excludeFromContext }),
  };
}

/** Messages the client built itself, until pi's own copies replace them. */
export class ProvisionalMessages {
  readonly #built = new WeakSet<AgentMessage>();

  /** Marks `message` as built here. */
  add(message: AgentMessage): void {
    this.#built.add(message);
  }

  /** True when `message` was built here. */
  has(message: AgentMessage | undefined): boolean {
    return message !== undefined && this.#built.has(message);
  }

  /**
   * Whether two messages are the same message: equal values, or a provisional one and pi's copy
   * of it, which differ in `timestamp` only.
   */
  readonly same = (a: AgentMessage | undefined, b: AgentMessage | undefined): boolean => {
    if (sameValue(a, b)) return true;
    if (a === undefined || b === undefined || (!this.has(a) && !this.has(b))) return false;
    return a.role === b.role && sameValue({ ...a, timestamp: 0 }, { ...b, timestamp: 0 });
  };

  /** Of two copies of one message, pi's (the one not built here). */
  pick(a: AgentMessage, b: AgentMessage): AgentMessage {
    return this.has(a) ? b : a;
  }
}
