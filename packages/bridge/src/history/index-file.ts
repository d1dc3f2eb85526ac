/**
 * The index file: the session directories' records, saved so a restarted bridge only stats the
 * files instead of reading them all. It is a cache, never the truth: a missing, damaged or
 * foreign index file is ignored (the bridge reads the files again), and it is replaced atomically
 * (write a temporary file, then rename), so a crash leaves the old one or the new one.
 */
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import type { DirectoryRecord } from "./session-directory.ts";

/** The index file's name in the sessions directory; session names cannot start with a dot. */
export const INDEX_FILE = ".pi-kit-index.json";

/** Bumped whenever the shape of a record changes: an older file is then ignored. */
const FORMAT = "pi-kit-session-index/3";

interface IndexFile {
  readonly format: string;
  readonly directories: readonly DirectoryRecord[];
}

/** The records in the index file at `path`; empty when there is none or it cannot be used. */
export async function loadIndexFile(path: string): Promise<DirectoryRecord[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return [];
  }
  try {
    const parsed = JSON.parse(text) as Partial<IndexFile>;
    if (parsed.format !== FORMAT || !Array.isArray(parsed.directories)) return [];
    return parsed.directories.filter(
      (d): d is DirectoryRecord =>
        typeof d === "object" && d !== null && typeof d.name === "string" && Array.isArray(d.files),
    );
  } catch {
    return [];
  }
}

/** Replaces the index file at `path` with `records` (mode 0600). */
export async function saveIndexFile(
  path: string,
  records: readonly DirectoryRecord[],
): Promise<void> {
  const temporary = `${path}.${crypto.randomUUID()}.tmp`;
  const file: IndexFile = { format: FORMAT, directories: records };
  try {
    await writeFile(temporary, JSON.stringify(file), { mode: 0o600 });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
