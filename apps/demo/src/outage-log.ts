/** The console's account of connection outages. */
import type { ConnectionState } from "@pi-kit/client";

/**
 * One console line when the connection drops and one when it is back, not one per attempt (the
 * browser itself still reports each socket that fails to open).
 */
export class OutageLog {
  /** When the connection dropped (`performance.now()`), while it is down. */
  #since: number | undefined;

  /** Notes the connection's new state. */
  note(state: ConnectionState): void {
    if (state.status === "reconnecting" && this.#since === undefined) {
      this.#since = performance.now();
      console.warn("pi-kit demo: connection lost, reconnecting…");
    } else if (state.status !== "reconnecting" && this.#since !== undefined) {
      const seconds = ((performance.now() - this.#since) / 1000).toFixed(1);
      this.#since = undefined;
      console.info(
        `pi-kit demo: connection ${state.status === "open" ? "back" : state.status} after ${seconds} s`,
      );
    }
  }
}
