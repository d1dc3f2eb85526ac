/**
 * The bridge's own records about who controls a session, sent by the bridge and read by its
 * clients. Several sockets may watch one session; exactly one of them, the controller, drives pi.
 * Every record the bridge writes itself has a `type` starting with `bridge_`, a prefix pi never
 * uses; a client consumes them rather than passing them on as pi's. The one exception is the run
 * snapshot (`run-snapshot.ts`), which travels in order among pi's records.
 */

/** The `type` prefix of every record the bridge writes itself. */
export const BRIDGE_RECORD_PREFIX = "bridge_";

/** One connection to a session, as control records name it. */
export interface BridgeConnectionRef {
  /** The connection's number, unique within the bridge process. */
  readonly id: number;
  /** A display name: the `label` the client gave when connecting, or `connection <id>`. */
  readonly label: string;
}

/** The receiving connection itself, in a {@link BridgeControlRecord}. */
export interface BridgeSelfRef extends BridgeConnectionRef {
  /** This connection may never control (a read-only ticket): taking control is refused. */
  readonly readOnly: boolean;
}

/** Who controls the session: sent to every connection when it attaches and on every change. */
export interface BridgeControlRecord {
  readonly type: "bridge_control";
  /** The connection this record was sent to. */
  readonly you: BridgeSelfRef;
  /** The connection that drives pi, or `null` when nobody does (the controller left). */
  readonly controller: BridgeConnectionRef | null;
  /** How many connections are attached to the session, the controller included. */
  readonly viewers: number;
}

/** Sent by a watcher to become the controller; answered by a `bridge_control` record or a {@link BridgeErrorRecord}. */
export interface BridgeTakeControlCommand {
  readonly type: "bridge_take_control";
}

/** Why the bridge refused a record of a connection that does not control the session. */
export type BridgeRefusalCode = "not_in_control" | "read_only";

/**
 * The bridge refused a dialog answer or a `bridge_take_control`. A refused pi command is answered
 * as pi would answer a failure instead (`type: "response"`, `success: false`, with the same
 * `code`), so the caller's pending call fails.
 */
export interface BridgeErrorRecord {
  readonly type: "bridge_error";
  /** What was refused: `bridge_take_control` or `extension_ui_response`. */
  readonly command: string;
  /** The dialog's id, for a refused dialog answer. */
  readonly id?: string;
  /** Why: watching (`not_in_control`), or a connection that may never control (`read_only`). */
  readonly code: BridgeRefusalCode;
  /** What happened and what to do, in words. */
  readonly error: string;
}

/**
 * Another connection answered (or cancelled) one of pi's dialogs: sent to every other connection,
 * since pi never says a dialog is over and theirs would stay open until it timed out.
 */
export interface BridgeDialogClosedRecord {
  readonly type: "bridge_dialog_closed";
  /** The dialog's id (its `extension_ui_request`'s `id`). */
  readonly id: string;
  /** The connection that answered it. */
  readonly by: BridgeConnectionRef;
}

/**
 * The bridge's keepalive, sent to every socket every `intervalMs`. Browsers cannot see WebSocket
 * ping frames, so the bridge says it is alive in a record: a client that hears nothing at all on
 * the socket for two intervals (its bridge, or the node relaying it, froze or the network went)
 * drops the socket and reconnects.
 */
export interface BridgePingRecord {
  readonly type: "bridge_ping";
  /** How often the bridge sends it, in ms: the client's deadline is two of these. */
  readonly intervalMs: number;
}

/**
 * pi wrote to stderr (a diagnostic it has no RPC record for: an extension that failed to load when
 * a session was replaced, a model it could not restore): sent to every connection of the session.
 * Lines written together are one record; the bridge bounds each record's size (a note says how
 * much was left out) and how many it sends per second, so a chatty pi cannot flood the sockets.
 */
export interface BridgePiStderrRecord {
  readonly type: "bridge_pi_stderr";
  /** The lines, without the final line break. */
  readonly text: string;
}

/** A record the bridge writes itself. */
export type BridgeRecord =
  | BridgeControlRecord
  | BridgeErrorRecord
  | BridgeDialogClosedRecord
  | BridgePingRecord
  | BridgePiStderrRecord;

/** Reads a bridge record from one line; `undefined` for anything else (pi's records). */
export function parseBridgeRecord(line: string): BridgeRecord | undefined {
  // A cheap filter in any key order: a bridge record's `type` value is the text `"bridge_…`, which
  // few of pi's records contain; the parse below decides.
  if (!line.includes(`"${BRIDGE_RECORD_PREFIX}`)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (record.type === "bridge_control" && isRef(record.you)) {
    if (record.controller !== null && !isRef(record.controller)) return undefined;
    if (typeof record.viewers !== "number") return undefined;
    return value as BridgeControlRecord;
  }
  if (record.type === "bridge_error" && typeof record.error === "string") {
    return value as BridgeErrorRecord;
  }
  if (record.type === "bridge_dialog_closed" && typeof record.id === "string" && isRef(record.by)) {
    return value as BridgeDialogClosedRecord;
  }
  if (
    record.type === "bridge_ping" &&
    typeof record.intervalMs === "number" &&
    record.intervalMs > 0
  ) {
    return value as BridgePingRecord;
  }
  if (record.type === "bridge_pi_stderr" && typeof record.text === "string") {
    return value as BridgePiStderrRecord;
  }
  return undefined;
}

function isRef(value: unknown): value is BridgeConnectionRef {
  if (typeof value !== "object" || value === null) return false;
  const ref = value as Record<string, unknown>;
  return typeof ref.id === "number" && typeof ref.label === "string";
}
