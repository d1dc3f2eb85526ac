/**
 * From a session directory's record (and, while its pi runs, the live state) to what the history
 * shows: the file pi resumes, the summary, and the damage found, in words for people.
 */
import type { SessionSummary } from "@pi-kit/client";
import type { DirectoryRecord, FileRecord } from "./session-directory.ts";

/** What the bridge knows about a session whose pi runs. */
export interface LiveState {
  /** In a run, or up and waiting. */
  readonly state: "running" | "idle";
  /** The last record either way (epoch ms). */
  readonly lastActivityMs: number;
  /** The session name pi announced since it started (`null`: cleared); `undefined`: none announced. */
  readonly name?: string | null;
}

/** Most damage reasons listed in a summary; the rest are counted. */
const MAX_REASONS = 3;

/** The file pi continues: the pi session file written last (ties: the later name). */
export function resumableFile(record: DirectoryRecord): FileRecord | undefined {
  let best: FileRecord | undefined;
  for (const file of record.files) {
    if (file.digest?.kind !== "pi") continue;
    if (best === undefined || file.mtimeMs > best.mtimeMs) best = file;
    else if (file.mtimeMs === best.mtimeMs && file.file > best.file) best = file;
  }
  return best;
}

/** When the session was last active, in epoch ms. */
export function lastActivityMs(record: DirectoryRecord, live?: LiveState): number {
  let latest = record.files.length === 0 ? record.mtimeMs : 0;
  for (const file of record.files) latest = Math.max(latest, file.mtimeMs);
  return Math.max(latest, live?.lastActivityMs ?? 0);
}

/** The summary of a stored session. */
export function summarize(record: DirectoryRecord, live?: LiveState): SessionSummary {
  const current = resumableFile(record);
  const digest = current?.digest ?? null;
  const name =
    live?.name === undefined ? (digest?.name ?? record.pendingName) : (live.name ?? undefined);
  let created = Number.POSITIVE_INFINITY;
  let sizeBytes = record.otherBytes;
  for (const file of record.files) {
    sizeBytes += file.size;
    const stamp = file.digest?.header ? Date.parse(file.digest.header.timestamp) : Number.NaN;
    if (stamp < created) created = stamp;
  }
  if (!Number.isFinite(created)) created = record.createdMs;
  const state = live?.state ?? "stopped";
  const damaged = damageOf(record, current);
  return {
    name: record.name,
    title: name ?? digest?.firstUserText ?? "",
    createdAt: isoTime(created),
    lastActivity: isoTime(lastActivityMs(record, live)),
    messageCount: digest?.messageCount ?? 0,
    state,
    sizeBytes,
    ...(damaged === undefined ? {} : { damaged }),
    ...(digest?.openRun && state !== "running" ? { interrupted: true } : {}),
  };
}

/** What could not be read in a session directory, or `undefined` when everything could. */
export function damageOf(
  record: DirectoryRecord,
  current: FileRecord | undefined = resumableFile(record),
): string | undefined {
  if (record.error !== undefined) return `Cannot read the session directory: ${record.error}`;
  const reasons: string[] = [];
  for (const file of record.files) {
    const digest = file.digest;
    if (digest === null) reasons.push(`Cannot read ${file.file}: ${file.error ?? "unknown error"}`);
    else if (digest.kind === "foreign" || (digest.kind === "empty" && digest.badLines > 0))
      reasons.push(`${file.file} is not a pi session file`);
    else if (digest.kind === "pi") {
      if (digest.badLines > 0)
        reasons.push(
          `${digest.badLines} ${digest.badLines === 1 ? "line" : "lines"} of ${file.file} could not be read`,
        );
      if (file.size > digest.parsedBytes)
        reasons.push(
          file === current
            ? `The last line of ${file.file} is incomplete (pi stopped mid-write); it opens without it`
            : `The last line of ${file.file} is incomplete`,
        );
    }
  }
  if (reasons.length === 0) return undefined;
  const shown = reasons.slice(0, MAX_REASONS).join("; ");
  const more = reasons.length - MAX_REASONS;
  return more > 0 ? `${shown}; and ${more} more` : shown;
}

function isoTime(ms: number): string {
  return new Date(Number.isFinite(ms) && ms > 0 ? ms : 0).toISOString();
}
