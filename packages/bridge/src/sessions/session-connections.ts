/**
 * The connections attached to one session, kept in step with its pi. Who controls is
 * {@link SessionControl}'s part; this is the rest: a connection that attaches is caught up on what
 * it missed (the bridge's notice about the start, the run in progress, the dialogs pi still waits
 * on), the others learn when one answers a dialog, the grace period runs from when the last one
 * left, and all of them are closed together when the session ends.
 */
import type { BridgePiStderrRecord } from "@pi-kit/protocol/bridge";
import { dialogClosed, type PendingDialogs } from "./pending-dialogs.ts";
import type { RetainedUi } from "./retained-ui.ts";
import type { RunRecorder } from "./run-recorder.ts";
import type { SessionConnection } from "./session-connection.ts";
import { SessionControl } from "./session-control.ts";

/**
 * The bridge's warning about how the session started, shown to every connection that attaches
 * until pi starts a run after it was first sent: not to the first connection only, since that
 * one can be a client that has already given up (a handshake it timed out, a socket that drops
 * at once) and the notice would then reach no one.
 */
export interface StartNotice {
  /** The notice's record id (the bridge's own, so no client can pass for it). */
  readonly id: string;
  readonly message: string;
}

/** The connections of one session, and what a joining one is sent. */
export class SessionConnections {
  /** The connections and which of them controls; the fan-out sends through it. */
  readonly control: SessionControl<SessionConnection>;
  readonly #run: RunRecorder;
  readonly #dialogs: PendingDialogs;
  readonly #ui: RetainedUi;
  /** The notice record, until pi starts a run after a connection had it. */
  #notice: string | undefined;
  /** {@link RunRecorder.runsStarted} when the notice was first sent. */
  #runsAtNotice: number | undefined;
  #detachedAt = performance.now();

  constructor(
    run: RunRecorder,
    dialogs: PendingDialogs,
    ui: RetainedUi,
    notice?: StartNotice,
    control = new SessionControl<SessionConnection>(),
  ) {
    this.control = control;
    this.#run = run;
    this.#dialogs = dialogs;
    this.#ui = ui;
    if (notice !== undefined) {
      this.#notice = JSON.stringify({
        type: "extension_ui_request",
        id: notice.id,
        method: "notify",
        message: notice.message,
        notifyType: "warning",
      });
    }
  }

  /** Whether a connection is attached. */
  get attached(): boolean {
    return this.control.connections.size > 0;
  }

  /** Milliseconds (performance clock) since the last connection left, or since creation. */
  detachedFor(now: number = performance.now()): number {
    return this.attached ? 0 : now - this.#detachedAt;
  }

  /**
   * Attaches a connection: it learns who controls (and so do the others), then gets the notice
   * unless pi has started a run since a connection first had it, the statuses, widgets and title pi set, the run in progress so
   * far and the dialogs pi still waits on.
   */
  attach(connection: SessionConnection): void {
    this.control.attach(connection);
    if (this.#notice !== undefined) {
      this.#runsAtNotice ??= this.#run.runsStarted;
      if (this.#run.runsStarted > this.#runsAtNotice) this.#notice = undefined;
      else connection.send(this.#notice);
    }
    for (const line of this.#ui.replay()) connection.send(line);
    // Before the dialogs: a dialog a tool's hook opened belongs to the run it joins.
    const run = this.#run.snapshot();
    if (run !== undefined) connection.send(run);
    for (const line of this.#dialogs.replay()) connection.send(line);
  }

  /** Detaches a connection (it closed); once none is left, the grace period starts. */
  detach(connection: SessionConnection): void {
    if (!this.control.detach(connection)) return;
    if (!this.attached) this.#detachedAt = performance.now();
  }

  /** `from` answered dialog `id`: if pi still waited on it, every other connection learns it is closed. */
  answered(id: string, from: SessionConnection | undefined): void {
    if (!this.#dialogs.answer(id) || from === undefined) return;
    const line = dialogClosed(id, from);
    for (const connection of this.control.connections) {
      if (connection !== from) connection.send(line);
    }
  }

  /** pi wrote to stderr: every connection gets it as a `bridge_pi_stderr` record. */
  piStderr(text: string): void {
    const line = JSON.stringify({ type: "bridge_pi_stderr", text } satisfies BridgePiStderrRecord);
    for (const connection of this.control.connections) connection.send(line);
  }

  /** Closes every connection with `code` and `reason` (the session ends); the grace period starts. */
  closeAll(code: number, reason: string): void {
    this.#detachedAt = performance.now();
    for (const connection of this.control.clear()) connection.close(code, reason);
  }
}
