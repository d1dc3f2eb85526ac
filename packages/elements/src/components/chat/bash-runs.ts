import type { BashRun } from "@pi-kit/client";
import type { BashExecutionMessage } from "@pi-kit/protocol";

/**
 * Picks the direct bash runs `<pi-chat>` still has to show after the messages. pi never streams a
 * `bashExecution` message, so a run is shown from the client's `bashRuns` until the session model
 * has its message in the transcript (`inTranscript`: at once when pi was idle, when the run going
 * on ended otherwise); from then on the message shows it, never both.
 */
export class BashRunFilter {
  #runs: readonly BashRun[] = [];
  #visible: readonly BashRun[] = [];

  /** The runs not yet in the transcript, oldest first (the same array while nothing changed). */
  visible(runs: readonly BashRun[]): readonly BashRun[] {
    if (runs === this.#runs) return this.#visible;
    this.#runs = runs;
    this.#visible = runs.some((run) => run.inTranscript)
      ? runs.filter((run) => !run.inTranscript)
      : runs;
    return this.#visible;
  }
}

const bashMessages = new WeakMap<BashRun, BashExecutionMessage>();

/** A run as a `bashExecution` message: one object per run snapshot, so an unchanged run is not rendered again. */
export function bashMessage(run: BashRun): BashExecutionMessage {
  let message = bashMessages.get(run);
  if (message !== undefined) return message;
  message = {
    role: "bashExecution" as const,
    command: run.command,
    output: run.output,
    exitCode: run.result?.exitCode,
    cancelled: run.result?.cancelled ?? false,
    truncated: run.result?.truncated ?? false,
    timestamp: 0,
  };
  bashMessages.set(run, message);
  return message;
}
