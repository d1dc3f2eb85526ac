import type { SessionState } from "@pi-kit/protocol";
import type { ReconnectInfo } from "../transports/transport.ts";
import type { SessionChangeReason } from "./client-events.ts";
import type { ClientParts } from "./client-parts.ts";
import { PiClientError } from "./errors.ts";

/** What keeping up with pi's session needs of the client besides its parts. */
export interface SessionSyncHost
  extends Pick<ClientParts, "hub" | "pending" | "tracker" | "dialogs" | "session" | "dialogHosts"> {
  /** True once the transport has closed. */
  closed(): boolean;
}

/**
 * Keeps the client on pi's session: loads the new one after a command switched it, and resyncs
 * after a reconnect lost answers and events; listeners hear `session_changed` once it is loaded.
 */
export class SessionSync {
  readonly #host: SessionSyncHost;

  constructor(host: SessionSyncHost) {
    this.#host = host;
  }

  /**
   * pi is on another session: load it in full before anyone hears of the change, so a listener
   * (a tree, a picker, a transcript) reading `client.session` sees the new one. Dialogs opened
   * before the command was sent (`dialogsBefore`) belonged to the old session: they are stale.
   */
  async changed(reason: SessionChangeReason, dialogsBefore: number): Promise<void> {
    let state: SessionState | undefined;
    try {
      state = (await this.#host.session.reload()).state;
    } catch (error) {
      throw PiClientError.forCall(reason, error, "loading the new session");
    }
    this.#host.dialogs.closeOpenedBefore(dialogsBefore);
    this.#emitChanged(reason, state);
  }

  /**
   * A reconnecting transport replaced its connection: answers and events of the gap are lost.
   * Calls sent on the old connection fail as `connection_lost` (pi may or may not have run them;
   * re-sending blindly could run a prompt twice), then the session is reloaded, the run state is
   * reconciled by the resync's `get_state`, and dialogs pi no longer waits for are closed.
   */
  reconnected(info: ReconnectInfo): void {
    const { hub, pending, tracker, dialogs, session, dialogHosts } = this.#host;
    const lost = pending.failSentBefore(info.generation, (command) =>
      PiClientError.connectionLost(command),
    );
    // pi may still run those calls: a dialog they opened stays until the re-attach tells.
    for (const id of lost) dialogHosts.delete(id);
    tracker.reconnected();
    session.connectionLost();
    dialogs.reattaching();
    session.resync().then(
      (snapshot) => {
        dialogs.reattached();
        hub.emit({ type: "session_resynced", generation: info.generation });
        this.#emitChanged("reconnect", snapshot.state);
      },
      (error: unknown) => {
        if (this.#host.closed()) return;
        hub.report({
          kind: "resync_failed",
          message: `resynchronising after the reconnect failed: ${String(error)}`,
          error,
        });
      },
    );
  }

  #emitChanged(reason: SessionChangeReason, state: SessionState | undefined): void {
    this.#host.hub.emit({
      type: "session_changed",
      reason,
      sessionId: state?.sessionId,
      sessionFile: state?.sessionFile,
    });
  }
}
