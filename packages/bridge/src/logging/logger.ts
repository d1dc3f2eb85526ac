/**
 * One structured log entry. Entries never carry the token, headers or record contents: a record
 * type, a session name or an origin a client sent appears only as a short {@link logLabel}.
 */
export type BridgeLogEvent =
  | { readonly event: "bridge_started"; readonly url?: string; readonly sessionsDir: string }
  | { readonly event: "config_warning"; readonly message: string }
  | { readonly event: "readiness_lost"; readonly problem: string }
  | { readonly event: "readiness_restored" }
  | { readonly event: "bridge_closed" }
  /** Another bridge took the sessions directory over (this one was frozen): this one closes. */
  | { readonly event: "sessions_dir_lost"; readonly pid?: number }
  | {
      readonly event: "connection_open";
      readonly session: string;
      readonly connection: number;
      readonly origin: string | null;
    }
  | {
      readonly event: "connection_close";
      readonly session: string;
      readonly connection: number;
      readonly code: number;
      readonly reason: string;
    }
  | {
      readonly event: "connection_rejected";
      readonly status: number;
      readonly reason: string;
      /** Why: a `TicketRefusal` or a `BridgeErrorCode`. */
      readonly code?: string;
      readonly session?: string;
      readonly origin: string | null;
    }
  | {
      /** A ticket's socket reached the ticket's expiry (plus the clock tolerance) and was closed. */
      readonly event: "connection_expired";
      readonly session: string;
      readonly connection: number;
    }
  | {
      readonly event: "connection_stalled";
      readonly session: string;
      readonly connection: number;
      readonly bufferedAmount: number;
    }
  | {
      readonly event: "command_denied";
      readonly session: string;
      readonly connection: number;
      readonly command: string;
      readonly reason: string;
    }
  | {
      /** A connection asked to control its session: it does now, or it is read-only. */
      readonly event: "control_taken" | "control_refused";
      readonly session: string;
      readonly connection: number;
    }
  | {
      readonly event: "session_created";
      readonly session: string;
      readonly pid: number | null;
      /** The session file pi continues, when it resumed one. */
      readonly resumedFrom?: string;
    }
  | {
      /** A session file's last line had no LF (a crash mid-write); the bridge ended it before pi appends. */
      readonly event: "session_repaired";
      readonly session: string;
      readonly file: string;
    }
  | { readonly event: "session_deleted"; readonly session: string }
  | {
      /** Reading or saving the history failed; the history stays usable. */
      readonly event: "history_error";
      readonly operation: string;
      readonly error: string;
    }
  | { readonly event: "session_closed"; readonly session: string; readonly reason: string }
  | {
      readonly event: "session_reaped";
      readonly session: string;
      readonly reason: "grace" | "idle";
    }
  | {
      readonly event: "pi_exit";
      readonly session: string;
      readonly exitCode: number | null;
      readonly signal: string | null;
      readonly stderrTail: string;
    }
  | { readonly event: "pi_record_error"; readonly session: string; readonly error: string }
  | {
      /** Cluster mode: this node took a session's lease (free, or released by its last holder). */
      readonly event: "lease_acquired" | "lease_taken_over";
      readonly session: string;
      readonly fence: number;
      /** The last holder's node id. */
      readonly from?: string;
      /** The session file the lease names (relative to the sessions directory). */
      readonly file?: string;
    }
  | { readonly event: "lease_released"; readonly session: string }
  | { readonly event: "lease_release_failed"; readonly session: string; readonly error: string }
  | { readonly event: "lease_lost"; readonly session: string; readonly reason: string }
  /** This cluster node's life in the lease store ended: every session and relay of it is closed. */
  | { readonly event: "node_life_ended"; readonly relays: number }
  | { readonly event: "session_fenced"; readonly session: string }
  | {
      /** A checkpoint of the session's workspace could not be taken (pi went on without it). */
      readonly event: "checkpoint_failed";
      readonly session: string;
      readonly error: string;
    }
  | { readonly event: "lease_store_reachable"; readonly reachable: boolean }
  | {
      /** Redis could not be reached (logged once per outage; the node retries every second). */
      readonly event: "lease_store_unreachable";
      /** The Redis URL, its password hidden. */
      readonly url: string;
      readonly error: string;
    }
  | { readonly event: "lease_store_connected"; readonly url: string }
  | {
      /** A request or socket for a session another node owns went to that node. */
      readonly event: "forwarded";
      readonly session: string;
      readonly kind: "http" | "websocket";
      readonly to: string;
      readonly outcome: string;
    }
  | { readonly event: "drain_started"; readonly timeoutMs: number }
  | { readonly event: "drain_done"; readonly durationMs: number };

/** The name of a log event. */
export type BridgeLogEventName = BridgeLogEvent["event"];

/** Receives every log entry; must not throw (a throwing logger is ignored). */
export type BridgeLogger = (entry: BridgeLogEvent) => void;

const WARNINGS: ReadonlySet<BridgeLogEventName> = new Set([
  "config_warning",
  "readiness_lost",
  "sessions_dir_lost",
  "session_repaired",
  "history_error",
  "connection_rejected",
  "connection_stalled",
  "command_denied",
  "pi_record_error",
  "lease_lost",
  "node_life_ended",
  "lease_release_failed",
  "lease_store_unreachable",
  "session_fenced",
  "checkpoint_failed",
]);

/** The level a log event is written at. */
export function logLevel(event: BridgeLogEventName): "info" | "warn" {
  return WARNINGS.has(event) ? "warn" : "info";
}

/**
 * The default logger: one JSON line per entry (`{"time","level","event",…}`) to `write`,
 * which defaults to stderr so stdout stays free for the CLI's one-time URL and token.
 */
export function jsonLogger(
  write: (line: string) => void = (line) => console.error(line),
): BridgeLogger {
  return (entry) => {
    write(
      JSON.stringify({ time: new Date().toISOString(), level: logLevel(entry.event), ...entry }),
    );
  };
}

/** The most characters of untrusted text (a record type, a name, an origin) a log entry holds. */
export const MAX_LOG_LABEL = 32;

/**
 * Untrusted text made fit for a log entry: at most `max` characters, anything but printable
 * ASCII escaped (`\u001b`), and `…` when cut. A 200 KB record type logs as 33 characters.
 */
export function logLabel(text: string, max: number = MAX_LOG_LABEL): string {
  const cut = text.length > max;
  const escaped = text
    .slice(0, max)
    .replace(/[^\x20-\x7e]|\\/g, (c) =>
      c === "\\" ? "\\\\" : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
  return cut ? `${escaped}…` : escaped;
}

/** A request's `Origin` header as a log label: a client chooses it, so it may be anything. */
export function originLabel(origin: string | undefined): string | null {
  return origin === undefined ? null : logLabel(origin, 100);
}

/** A logger that drops everything, for tests and embedding. */
export const silentLogger: BridgeLogger = () => {};

/** Calls `logger`, keeping a throwing one from breaking the bridge. */
export function safeLog(logger: BridgeLogger, entry: BridgeLogEvent): void {
  try {
    logger(entry);
  } catch {
    // A broken log sink must not take a session down; there is nowhere else to report it.
  }
}
