/**
 * The bridge's snapshot of the run in progress, sent to a connection that attaches while pi is
 * streaming (a reload, a second viewer, a reconnect). pi's `get_messages` leaves out the message
 * being streamed, so without it a joining page would show nothing of the answer until it ends.
 *
 * Unlike the other `bridge_*` records, a client's transport does not consume it: its place
 * among pi's records matters (it describes the run as of the live records that follow it), so it
 * reaches the client in order, on the record stream, and the client applies it there.
 */

/** The `type` of a {@link BridgeRunSnapshotRecord}. */
export const BRIDGE_RUN_SNAPSHOT = "bridge_run_snapshot";

/**
 * The run as far as it has gone: pi records, in the order a client applies them, each exactly as
 * pi would write it: `agent_start`; a `message_start` whose message holds everything streamed so
 * far (its `message_update` deltas folded in); then, for each tool still running, its
 * `tool_execution_start` and latest `tool_execution_update`. The live records that follow continue
 * from there (the next delta extends that message).
 */
export interface BridgeRunSnapshotRecord {
  readonly type: typeof BRIDGE_RUN_SNAPSHOT;
  /** pi records (JSON text, one record each), oldest first. */
  readonly records: readonly string[];
}

/** Whether a parsed record is a well-formed {@link BridgeRunSnapshotRecord}. */
export function isRunSnapshot(value: unknown): value is BridgeRunSnapshotRecord {
  if (typeof value !== "object" || value === null) return false;
  const record = value as { type?: unknown; records?: unknown };
  return (
    record.type === BRIDGE_RUN_SNAPSHOT &&
    Array.isArray(record.records) &&
    record.records.every((item) => typeof item === "string")
  );
}

/** Reads a run snapshot from one line; `undefined` for any other record (a cheap text test first, in any key order). */
export function parseRunSnapshot(line: string): BridgeRunSnapshotRecord | undefined {
  if (!line.includes(`"${BRIDGE_RUN_SNAPSHOT}"`)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  return isRunSnapshot(value) ? value : undefined;
}
