import type { BashRun } from "@pi-kit/client";
import type { AgentMessage } from "@pi-kit/protocol";

/**
 * Picks the direct bash runs `<pi-chat>` still has to show after the messages. pi never streams a
 * `bashExecution` message, so a run is shown from the client's `bashRuns`; but once a resync
 * reloads the transcript, `get_messages` contains the same run as a `bashExecution` message, and
 * it would appear twice. A finished run is hidden once the transcript holds more `bashExecution`
 * messages of its command than when the run was first seen (newer runs claim theirs first), so an
 * identical command in older history never hides a new run.
 */
export class BashRunFilter {
  /** Per run id: how many `bashExecution` messages of its command existed when it was first seen. */
  readonly #baselines = new Map<BashRun["id"], number>();
  #runs: readonly BashRun[] = [];
  #messages: readonly AgentMessage[] = [];
  #visible: readonly BashRun[] = [];

  /** The runs not yet in `messages`, oldest first (the same array while nothing changed). */
  visible(runs: readonly BashRun[], messages: readonly AgentMessage[]): readonly BashRun[] {
    if (runs === this.#runs && messages === this.#messages) return this.#visible;
    this.#runs = runs;
    this.#messages = messages;
    if (runs.length === 0) {
      this.#baselines.clear();
      this.#visible = runs;
      return runs;
    }
    const counts = new Map<string, number>();
    for (const message of messages)
      if (message.role === "bashExecution")
        counts.set(message.command, (counts.get(message.command) ?? 0) + 1);
    const ids = new Set<BashRun["id"]>();
    for (const run of runs) {
      ids.add(run.id);
      if (!this.#baselines.has(run.id)) this.#baselines.set(run.id, counts.get(run.command) ?? 0);
    }
    for (const id of this.#baselines.keys()) if (!ids.has(id)) this.#baselines.delete(id);
    // Newest first: a newer run's message is always past an older run's baseline, not vice versa.
    const claimed = new Map<string, number>();
    const hidden = new Set<BashRun>();
    for (let i = runs.length - 1; i >= 0; i--) {
      const run = runs[i] as BashRun;
      if (run.status === "running") continue;
      const taken = claimed.get(run.command) ?? 0;
      const extra = (counts.get(run.command) ?? 0) - (this.#baselines.get(run.id) ?? 0) - taken;
      if (extra <= 0) continue;
      hidden.add(run);
      claimed.set(run.command, taken + 1);
    }
    this.#visible = hidden.size === 0 ? runs : runs.filter((run) => !hidden.has(run));
    return this.#visible;
  }
}
