/**
 * Untracked files over the size cap: never snapshotted (what they cost stays bounded), but listed
 * as changed all the same. Each checkpoint records which such files there were, with their size
 * and modification time, in `<git dir>/pi-kit-large/<checkpoint id>.json`: a later listing tells
 * from it whether one was added, modified or deleted since.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FileChange } from "@pi-kit/protocol/bridge";
import { sortByPath } from "./raw-diff.ts";

/** A file over the cap as it was seen: its size in bytes and modification time (whole ms). */
export interface LargeFile {
  readonly size: number;
  readonly mtimeMs: number;
}

/** Files over the cap, by path relative to the workspace. */
export type LargeFiles = ReadonlyMap<string, LargeFile>;

const DIR = "pi-kit-large";

/** Records the files over the cap at checkpoint `id`. */
export async function saveLargeFiles(gitDir: string, id: string, files: LargeFiles): Promise<void> {
  if (files.size === 0) return;
  await mkdir(join(gitDir, DIR), { recursive: true });
  await writeFile(join(gitDir, DIR, `${id}.json`), JSON.stringify(Object.fromEntries(files)));
}

/** The files over the cap at checkpoint `id` (none recorded: none). */
export async function loadLargeFiles(gitDir: string, id: string): Promise<LargeFiles> {
  const text = await readFile(join(gitDir, DIR, `${id}.json`), "utf8").catch(() => "{}");
  return new Map(Object.entries(JSON.parse(text) as Record<string, LargeFile>));
}

/**
 * `changes` (git's view of the snapshotted files since a checkpoint) with the files over the cap
 * merged in: `then` at the checkpoint, `now` in the workspace, `exists` telling whether a path
 * is still there. Such a file is marked `tooLarge` with its `size` (for a deleted one, the size
 * it had); one git sees deleted or added because it crossed the cap is `modified`.
 */
export function withLargeFiles(
  changes: readonly FileChange[],
  then: LargeFiles,
  now: LargeFiles,
  exists: (path: string) => boolean,
): FileChange[] {
  if (then.size === 0 && now.size === 0) return [...changes];
  const byPath = new Map(changes.map((c) => [c.path, c]));
  const tooLarge = (path: string, status: FileChange["status"], size: number): FileChange => ({
    path,
    status,
    additions: 0,
    deletions: 0,
    binary: false,
    tooLarge: true,
    size,
  });
  for (const [path, file] of now) {
    const before = then.get(path);
    const listed = byPath.get(path);
    if (listed?.status === "deleted") byPath.set(path, tooLarge(path, "modified", file.size));
    else if (before === undefined) byPath.set(path, tooLarge(path, "added", file.size));
    else if (before.size !== file.size || before.mtimeMs !== file.mtimeMs)
      byPath.set(path, tooLarge(path, "modified", file.size));
  }
  for (const [path, file] of then) {
    if (now.has(path)) continue;
    const listed = byPath.get(path);
    if (listed?.status === "added")
      byPath.set(path, { ...listed, status: "modified", tooLarge: true });
    else if (listed === undefined && !exists(path))
      byPath.set(path, tooLarge(path, "deleted", file.size));
  }
  return sortByPath([...byPath.values()]);
}
