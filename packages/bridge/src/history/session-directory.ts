/**
 * One session directory on disk: the pi session files in it (`*.jsonl`, each digested), the bytes
 * of everything else, and what went wrong reading it. A rescan reuses the digests of files whose
 * size and mtime did not change and reads grown files only from where their digest stopped.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { FileDigest } from "./file-digest.ts";
import { readDigest } from "./read-digest.ts";

/**
 * A name given to a session pi has not saved yet (no session file): the bridge keeps it here and
 * hands it to the next pi of the session, which saves it with the first message.
 */
export const PENDING_NAME_FILE = ".pi-kit-name";

/** One `*.jsonl` file of a session directory. */
export interface FileRecord {
  /** The file name (no directory). */
  readonly file: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** Its digest; `null` when it could not be read (see `error`). */
  readonly digest: FileDigest | null;
  /** Why it could not be read. */
  readonly error?: string;
}

/** A session directory as the index keeps it. Plain data: the index file stores it. */
export interface DirectoryRecord {
  /** The session name (the directory's name). */
  readonly name: string;
  /** The directory's birth time (its mtime where the file system has none), in ms. */
  readonly createdMs: number;
  /** The directory's own mtime (a file added or removed), in ms. */
  readonly mtimeMs: number;
  /** The session files, by name. */
  readonly files: readonly FileRecord[];
  /** Bytes of the other files in the directory (exports and the like). */
  readonly otherBytes: number;
  /** A name waiting for pi to save it (see {@link PENDING_NAME_FILE}). */
  readonly pendingName?: string;
  /** Why the directory itself could not be read. */
  readonly error?: string;
}

/** A short reason for a file system error, e.g. `permission denied (EACCES)`. */
export function describeError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const words: Record<string, string> = {
    EACCES: "permission denied",
    EPERM: "operation not permitted",
    ENOENT: "no such file",
    EISDIR: "is a directory",
    EIO: "input/output error",
    ELOOP: "too many symbolic links",
  };
  if (typeof code === "string") return `${words[code] ?? "cannot read"} (${code})`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Reads the directory `dir` of session `name`. Never throws: an unreadable directory or file is
 * recorded with its error. Resolves `undefined` when there is no directory (none, or a file).
 */
export async function scanDirectory(
  dir: string,
  name: string,
  previous?: DirectoryRecord,
): Promise<DirectoryRecord | undefined> {
  let dirStat: Awaited<ReturnType<typeof stat>>;
  try {
    dirStat = await stat(dir);
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return undefined;
    return {
      name,
      createdMs: 0,
      mtimeMs: 0,
      files: [],
      otherBytes: 0,
      error: describeError(error),
    };
  }
  if (!dirStat.isDirectory()) return undefined;
  const createdMs = dirStat.birthtimeMs > 0 ? dirStat.birthtimeMs : dirStat.mtimeMs;
  const base = { name, createdMs, mtimeMs: dirStat.mtimeMs };
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (error) {
    return { ...base, files: [], otherBytes: 0, error: describeError(error) };
  }
  const known = new Map((previous?.files ?? []).map((f) => [f.file, f]));
  const files: FileRecord[] = [];
  let otherBytes = 0;
  let pendingName: string | undefined;
  await Promise.all(
    entries.map(async (entry) => {
      const path = join(dir, entry);
      let info: Awaited<ReturnType<typeof stat>>;
      try {
        info = await stat(path);
      } catch (error) {
        // Gone meanwhile, or a dangling link, is no part of the session; a session file that
        // cannot be examined is, and is reported.
        const code = (error as { code?: unknown }).code;
        if (code !== "ENOENT" && entry.endsWith(".jsonl")) {
          files.push({
            file: entry,
            size: 0,
            mtimeMs: 0,
            digest: null,
            error: describeError(error),
          });
        }
        return;
      }
      if (!info.isFile()) return;
      if (entry === PENDING_NAME_FILE) {
        pendingName = await readPendingName(path);
        return;
      }
      if (!entry.endsWith(".jsonl")) {
        otherBytes += info.size;
        return;
      }
      files.push(await fileRecord(path, entry, info.size, info.mtimeMs, known.get(entry)));
    }),
  );
  files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { ...base, files, otherBytes, ...(pendingName ? { pendingName } : {}) };
}

async function readPendingName(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, "utf8")).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The record of one session file, reusing `previous` when the file did not change. */
async function fileRecord(
  path: string,
  file: string,
  size: number,
  mtimeMs: number,
  previous: FileRecord | undefined,
): Promise<FileRecord> {
  if (previous?.digest && previous.size === size && previous.mtimeMs === mtimeMs) return previous;
  try {
    const read = await readDigest(path, previous?.digest ?? undefined);
    return { file, size: read.size, mtimeMs, digest: read.digest };
  } catch (error) {
    return { file, size, mtimeMs, digest: null, error: describeError(error) };
  }
}
