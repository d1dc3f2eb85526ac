/** What the bridge reports of a session: its state, how its pi ended, and why the bridge stopped it. */
import { BridgeCloseCode, closeReason } from "@pi-kit/protocol/bridge";

/** Why the bridge stops a session's pi. */
export type CloseReason = "closed" | "idle" | "grace" | "shutdown" | "deleted";

/** Where a session's pi is in its life. */
export type SessionState = "starting" | "running" | "stopping" | "exited";

/** How pi ended. */
export interface SessionExit {
  /** The exit code, or `null` when a signal ended it. */
  readonly exitCode: number | null;
  /** The signal that ended it, or `null`. */
  readonly signal: string | null;
  /** The last lines pi wrote to stderr. */
  readonly stderrTail: string;
  /** Whether the bridge stopped it (`true`) or it ended by itself. */
  readonly stoppedByBridge: boolean;
}

/** A snapshot of a session for the HTTP API and for tests. */
export interface SessionInfo {
  /** The session's name (also its directory name). */
  readonly name: string;
  /** pi's lifecycle state. */
  readonly state: SessionState;
  /** Whether pi is in a run (between `agent_start` and `agent_settled`/`agent_end`). */
  readonly streaming: boolean;
  /** Whether a client is attached. */
  readonly attached: boolean;
  /** How many connections are attached (one controls, the others watch). */
  readonly viewers: number;
  /** The label of the connection in control, or `null` when nobody controls. */
  readonly controller: string | null;
  /** pi's process id, while known. */
  readonly pid: number | null;
  /** When the session was created (ISO 8601). */
  readonly createdAt: string;
  /** The last record in either direction (ISO 8601). */
  readonly lastActivity: string;
  /** Dialogs pi still waits on. */
  readonly pendingDialogs: number;
  /** Bytes queued now on the fullest attached socket. */
  readonly bufferedAmount: number;
  /** The most bytes ever queued on one of this session's sockets (the backpressure bound). */
  readonly peakBufferedAmount: number;
  /** How often reading pi was paused because a socket was over the high-water mark. */
  readonly pauses: number;
  /** How pi ended, once it has. */
  readonly exit: SessionExit | null;
  /** The session file pi continued when it started, if it resumed one. */
  readonly resumedFrom: string | null;
}

/**
 * The close code and reason for a client of a session whose pi has ended (`exit`), or is ending
 * (`null`: the bridge is stopping it).
 */
export function endCode(exit: SessionExit | null): [code: number, reason: string] {
  if (exit === null || exit.stoppedByBridge)
    return [BridgeCloseCode.SessionClosed, closeReason({ reason: "closed" })];
  return [
    BridgeCloseCode.PiExited,
    closeReason(
      { reason: "exit", exitCode: exit.exitCode, signal: exit.signal },
      exit.stderrTail.trimEnd(),
    ),
  ];
}

/** What the bridge knows about a session whose pi runs. */
export interface LiveState {
  /** In a run, or up and waiting. */
  readonly state: "running" | "idle";
  /** pi's last record of a run (epoch ms; 0: none since it started): the conversation's activity. */
  readonly lastActivityMs: number;
  /**
   * The last record either way (epoch ms), queries included: when it moves, pi may have written
   * its files (a name, a fork) and the history reads them again.
   */
  readonly touchedMs?: number;
  /** The session name pi announced since it started (`null`: cleared); `undefined`: none announced. */
  readonly name?: string | null;
  /**
   * The name of the session file pi moved to since it started (a fork, a new session, a switch),
   * which pi may not have written yet: pi saves a file once it holds an answer.
   */
  readonly file?: string;
  /** pi got to `file` by a fork or a clone of the file it was on. */
  readonly forked?: boolean;
}
