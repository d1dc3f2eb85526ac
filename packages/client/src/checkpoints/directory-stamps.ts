/**
 * Whether any file may have appeared in or left a workspace since a scan, without a scan: a new,
 * removed or renamed entry changes its directory's modification time (the idea of git's own
 * untracked cache, which only `git status` uses). The stamps cover every directory git looks
 * into: those of the files it knows and, below them, every directory it does not ignore. A
 * directory changed within {@link RACY_MS} of the scan is not trusted (a change in the same
 * clock tick would not show).
 */
import { lstat, readdir } from "node:fs/promises";
import { dirname, join } from "node:path";

const RACY_MS = 1000;

/** The modification times of a workspace's directories at a scan. */
export class DirectoryStamps {
  readonly #workspace: string;
  readonly #stamps: ReadonlyMap<string, number>;

  private constructor(workspace: string, stamps: ReadonlyMap<string, number>) {
    this.#workspace = workspace;
    this.#stamps = stamps;
  }

  /**
   * Stamps the directories of `files` (every file git sees, `/`-separated) and those below them
   * that `ignored` does not leave out; `undefined` when one changed too recently to be trusted.
   * `scannedAt`: when the scan that listed `files` started.
   */
  static async capture(
    workspace: string,
    files: readonly string[],
    ignored: (dirs: readonly string[]) => Promise<ReadonlySet<string>>,
    scannedAt: number,
  ): Promise<DirectoryStamps | undefined> {
    const dirs = new Set<string>([""]);
    for (const file of files)
      for (let dir = dirname(file); dir !== "." && !dirs.has(dir); dir = dirname(dir))
        dirs.add(dir);
    // Directories holding no file git sees (empty, or only ignored files) are looked into too.
    let frontier = [...dirs];
    while (frontier.length > 0) {
      const unknown: string[] = [];
      for (const dir of frontier) {
        const entries = await readdir(join(workspace, dir), { withFileTypes: true }).catch(
          () => [],
        );
        for (const entry of entries) {
          const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
          if (entry.isDirectory() && !dirs.has(path) && entry.name !== ".git") unknown.push(path);
        }
      }
      const left = unknown.length === 0 ? new Set<string>() : await ignored(unknown);
      frontier = unknown.filter((dir) => !left.has(dir));
      for (const dir of frontier) dirs.add(dir);
    }
    const stamps = new Map<string, number>();
    for (const dir of dirs) {
      // A directory of a deleted file may be gone: stamped as missing.
      const info = await lstat(join(workspace, dir)).catch(() => undefined);
      if (info !== undefined && info.mtimeMs >= scannedAt - RACY_MS) return undefined;
      stamps.set(dir, info?.mtimeMs ?? -1);
    }
    return new DirectoryStamps(workspace, stamps);
  }

  /** Whether every stamped directory is as it was (no entry can have come or gone). */
  async unchanged(): Promise<boolean> {
    const checks = [...this.#stamps].map(async ([dir, mtimeMs]) => {
      const info = await lstat(join(this.#workspace, dir)).catch(() => undefined);
      return (info?.mtimeMs ?? -1) === mtimeMs;
    });
    return (await Promise.all(checks)).every(Boolean);
  }
}
