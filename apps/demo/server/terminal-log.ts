/**
 * What the demo prints while it runs. By default one line per session start and stop; with
 * `--verbose` the bridge's full JSON log (one object per line on stderr).
 */
import { type BridgeLogger, jsonLogger } from "@pi-kit/bridge";

/** The demo's terminal log. */
export interface TerminalLog {
  /** The logger to give the bridge. */
  readonly logger: BridgeLogger;
  /** Notes that the server is stopping, so sessions stopped from now on say why. */
  shuttingDown(): void;
}

/** A log for the demo's terminal: quiet lines, or the bridge's JSON log when `verbose`. */
export function terminalLog(
  verbose: boolean,
  write: (line: string) => void = (line) => console.log(line),
): TerminalLog {
  if (verbose) return { logger: jsonLogger(), shuttingDown() {} };
  // Why the bridge stops a session, known before pi's exit is reported.
  const stopping = new Map<string, string>();
  let shutdown = false;
  const logger: BridgeLogger = (entry) => {
    switch (entry.event) {
      case "session_created":
        write(`session ${entry.session} started (pi pid ${entry.pid ?? "?"})`);
        return;
      case "session_reaped":
        stopping.set(entry.session, entry.reason === "grace" ? "no page open" : "idle");
        return;
      case "pi_exit": {
        const reason =
          stopping.get(entry.session) ??
          (shutdown
            ? "server stopping"
            : entry.signal !== null
              ? `pi ended by ${entry.signal}`
              : entry.exitCode !== 0
                ? `pi exited with code ${entry.exitCode}`
                : undefined);
        stopping.delete(entry.session);
        write(`session ${entry.session} stopped${reason === undefined ? "" : ` (${reason})`}`);
        return;
      }
      default:
        return;
    }
  };
  return {
    logger,
    shuttingDown() {
      shutdown = true;
    },
  };
}
