/**
 * From a session directory's record (and, while its pi runs, the live state) to what the history
 * shows: the file pi resumes, the summary, and the damage found, in words for people.
 */
import type { SessionFork, SessionSummary } from "@pi-kit/protocol/bridge";
import type { LiveState } from "../sessions/session-info.ts";
import type { DirectoryRecord, FileRecord } from "./session-directory.ts";

/** Most damage reasons listed in a summary; the rest are counted. */
const MAX_REASONS = 3;

/** How far a fork's title follows its origins: deeper chains (or a cycle) stop there. */
const MAX_FORK_DEPTH = 16;

/** Said after the title of the session a fork came from. */
export const FORK_SUFFIX = " (fork)";

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
  const unsaved = unsavedFile(record, live);
  const current = unsaved === undefined ? liveFile(record, live) : undefined;
  const digest = current?.digest ?? null;
  const stored = unsaved?.title ?? storedTitle(record, current);
  const title = live?.name === undefined ? stored : (live.name ?? undefined);
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
  const forks = forksOf(record, current, unsaved);
  return {
    name: record.name,
    title: title ?? "",
    createdAt: isoTime(created),
    lastActivity: isoTime(lastActivityMs(record, live)),
    messageCount: digest?.messageCount ?? 0,
    state,
    sizeBytes,
    ...(damaged === undefined ? {} : { damaged }),
    ...(digest?.openRun && state !== "running" ? { interrupted: true } : {}),
    ...(forks === undefined ? {} : { forks }),
  };
}

/**
 * Whether a session holds no conversation yet: no message of the user's in any of its files, no
 * title, nothing damaged. The history leaves such sessions out until their first message.
 */
export function isEmptySession(record: DirectoryRecord, summary: SessionSummary): boolean {
  if (summary.title !== "" || summary.damaged !== undefined || record.error !== undefined)
    return false;
  return record.files.every((file) => file.digest !== null && file.digest.userMessages === 0);
}

/**
 * A session file's title: pi's session name, else its first message. A fork (pi's
 * `parentSession` names another file of the session) is named after the file it came from,
 * "<that title> (fork)", unless it was given a name of its own since or moved to another
 * working directory.
 */
export function fileTitle(
  record: DirectoryRecord,
  file: FileRecord,
  depth = 0,
): string | undefined {
  const own = file.digest?.name;
  const parent = depth < MAX_FORK_DEPTH ? parentOf(record, file) : undefined;
  if (parent === undefined) return own ?? file.digest?.firstUserText;
  if (own !== undefined && own !== parent.digest?.name) return own;
  const above = fileTitle(record, parent, depth + 1) ?? "";
  // A copy into another working directory (the bridge's `--fork` when a project was moved)
  // goes on with the same conversation: it keeps its title.
  if (file.digest?.header?.cwd !== parent.digest?.header?.cwd) return own ?? above;
  return `${above}${FORK_SUFFIX}`.trim();
}

/**
 * The title of the file pi continues: its name, else a name waiting for pi to save it, else its
 * first message; a fork's as {@link fileTitle} gives it.
 */
function storedTitle(record: DirectoryRecord, current: FileRecord | undefined): string | undefined {
  const digest = current?.digest;
  if (
    current !== undefined &&
    (digest?.name !== undefined || parentOf(record, current) !== undefined)
  )
    return fileTitle(record, current);
  return digest?.name ?? record.pendingName ?? digest?.firstUserText;
}

/** The file `file` was forked from, when it is in the same session directory. */
function parentOf(record: DirectoryRecord, file: FileRecord): FileRecord | undefined {
  const parent = file.digest?.header?.parentFile;
  if (parent === undefined || parent === file.file) return undefined;
  return record.files.find((f) => f.file === parent && f.digest?.kind === "pi");
}

/** The file pi is on: the one it moved to, when that is written, else the one written last. */
function liveFile(record: DirectoryRecord, live: LiveState | undefined): FileRecord | undefined {
  const moved = live?.file;
  const file = moved === undefined ? undefined : record.files.find((f) => f.file === moved);
  return file?.digest?.kind === "pi" ? file : resumableFile(record);
}

/**
 * The file pi moved to but has not written yet (a fork at the first message, a new session), as
 * the history lists it: empty, and a fork named after the file it came from.
 */
function unsavedFile(
  record: DirectoryRecord,
  live: LiveState | undefined,
): SessionFork | undefined {
  const moved = live?.file;
  if (moved === undefined || record.files.some((f) => f.file === moved)) return undefined;
  const origin = live?.forked ? resumableFile(record) : undefined;
  // Moved to without a run (a fork): it was made at pi's last record.
  const now = isoTime(Math.max(live?.lastActivityMs ?? 0, live?.touchedMs ?? 0));
  return {
    file: moved,
    title: origin === undefined ? "" : `${fileTitle(record, origin) ?? ""}${FORK_SUFFIX}`.trim(),
    createdAt: now,
    lastActivity: now,
    messageCount: 0,
    current: true,
    ...(origin === undefined ? {} : { forkedFrom: origin.file }),
  };
}

/** Every pi session file of a session, oldest first, when it has more than one; else `undefined`. */
function forksOf(
  record: DirectoryRecord,
  current: FileRecord | undefined,
  unsaved: SessionFork | undefined,
): SessionFork[] | undefined {
  const files = record.files.filter((file) => file.digest?.kind === "pi");
  if (files.length + (unsaved === undefined ? 0 : 1) < 2) return undefined;
  const created = (file: FileRecord) => Date.parse(file.digest?.header?.timestamp ?? "");
  files.sort((a, b) => (created(a) || a.mtimeMs) - (created(b) || b.mtimeMs));
  const listed = files.map((file): SessionFork => {
    const parent = parentOf(record, file);
    const stamp = created(file);
    return {
      file: file.file,
      title: fileTitle(record, file) ?? "",
      createdAt: isoTime(Number.isFinite(stamp) ? stamp : file.mtimeMs),
      lastActivity: isoTime(file.mtimeMs),
      messageCount: file.digest?.messageCount ?? 0,
      current: file === current,
      ...(parent === undefined ? {} : { forkedFrom: parent.file }),
    };
  });
  return unsaved === undefined ? listed : [...listed, unsaved];
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
