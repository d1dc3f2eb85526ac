/**
 * Checkpoints of a workspace in a shadow git repository outside it (the way Cline's checkpoints
 * work): a snapshot of every file at the start of a session and of each run, the files changed
 * since any of them (including what a shell command wrote, renamed or deleted, and binaries),
 * their diffs, reverting one file and restoring the whole workspace to a checkpoint.
 *
 * The engine is the `git` binary, not a library such as isomorphic-git: its index and object
 * store handle a 10,000-file tree in milliseconds (stat-based change detection, packed objects,
 * rename detection), it applies `.gitignore` exactly as the user's own git does, and it is on
 * every machine pi runs on. The shadow repository's `GIT_DIR` is outside the workspace and the
 * workspace is its `GIT_WORK_TREE`, so the user's own `.git` is never read or written.
 * @module
 */
import { lstat, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { CheckpointSummary, FileChange, FileChangeStatus } from "@pi-kit/protocol/bridge";
import { CheckpointError } from "./checkpoint-error.ts";
import { DirectoryStamps } from "./directory-stamps.ts";
import { type ShadowGit, shadowGit } from "./git-command.ts";
import { inheritedIgnores } from "./inherited-ignores.ts";
import {
  type LargeFile,
  type LargeFiles,
  loadLargeFiles,
  saveLargeFiles,
  withLargeFiles,
} from "./large-files.ts";
import { parseRawNumstat } from "./raw-diff.ts";

export type { FileChange, FileChangeStatus };

/** Options of {@link Checkpoints.open}. */
export interface CheckpointsOptions {
  /** The workspace to take checkpoints of (pi's working directory). */
  readonly workspace: string;
  /** Where the shadow repository lives: a directory outside the workspace, created if missing. */
  readonly dir: string;
  /**
   * Untracked files larger than this (in bytes) are not snapshotted: they are listed as changed,
   * marked `tooLarge`, but cannot be reverted or restored. Default 5 MiB.
   */
  readonly maxFileBytes?: number;
  /** The git executable. Default `git` on `PATH`. */
  readonly git?: string;
  /**
   * Paths inside the workspace (relative, `/`-separated) never taken into checkpoints, e.g. where
   * a host keeps its own state when that is inside the workspace.
   */
  readonly exclude?: readonly string[];
}

/** One checkpoint: a snapshot of the workspace. */
export type Checkpoint = CheckpointSummary;

const DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024;
const REF_PREFIX = "refs/pi-kit/checkpoints/";
/** The shadow repository's branch: each checkpoint is a commit on it. */
const BRANCH = "checkpoints";

/** The checkpoints of one workspace. */
export class Checkpoints {
  readonly #git: ShadowGit;
  readonly #gitDir: string;
  readonly #workspace: string;
  readonly #maxFileBytes: number;
  /**
   * The exclude file: the `.gitignore` rules the workspace inherits from the repository it lies
   * in, then {@link CheckpointsOptions.exclude}.
   */
  #excludeFile: string;
  /** The checkpoints, read once from the refs, then kept up to date here. */
  #checkpoints: Checkpoint[] | undefined;
  /**
   * The workspace's directories when the last listing scanned it: while none changed, no file
   * can have come or gone, and a listing needs no scan. Dropped by reverts and restores.
   */
  #stamps: DirectoryStamps | undefined;
  /** The files over the cap that scan found. */
  #large: LargeFiles = new Map();
  /** The files over the cap each checkpoint recorded, as read or written so far. */
  readonly #largeAt = new Map<string, LargeFiles>();
  /** One git operation at a time: they share the shadow index. */
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(options: CheckpointsOptions) {
    this.#gitDir = join(options.dir, "git");
    this.#workspace = options.workspace;
    this.#maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.#excludeFile = excludeLines(options.exclude ?? []);
    this.#git = shadowGit(options.git ?? "git", this.#gitDir, options.workspace);
  }

  /**
   * Opens (creating it if needed) the shadow repository of `options.workspace` in `options.dir`.
   *
   * @example
   * ```ts
   * const checkpoints = await Checkpoints.open({ workspace: "/my/project", dir: "/state/cp" });
   * const start = await checkpoints.checkpoint("session start");
   * // … pi works …
   * for (const change of await checkpoints.changes(start.id)) console.log(change.status, change.path);
   * await checkpoints.restore(start.id);
   * ```
   */
  static async open(options: CheckpointsOptions): Promise<Checkpoints> {
    const checkpoints = new Checkpoints(options);
    await checkpoints.#serial(() => checkpoints.#init());
    return checkpoints;
  }

  /** Takes a checkpoint of the workspace as it is now. */
  checkpoint(label: string): Promise<Checkpoint> {
    return this.#serial(async () => {
      const large = await this.#stage();
      // One process writes the tree, the commit and the branch; the id is read from the ref file.
      // Whole seconds, as git keeps them: the time read back from the refs (after a restart, or
      // on another node in a cluster) is the same.
      const createdAt = Math.floor(Date.now() / 1000) * 1000;
      await this.#git.run([
        "commit",
        "-q",
        "--no-verify",
        "--allow-empty",
        `--date=@${createdAt / 1000} +0000`,
        "-m",
        label,
      ]);
      const id = (await readFile(join(this.#gitDir, "refs", "heads", BRANCH), "utf8")).trim();
      await saveLargeFiles(this.#gitDir, id, large);
      this.#largeAt.set(id, large);
      const list = await this.#list();
      const number = String(list.length + 1).padStart(6, "0");
      const refs = join(this.#gitDir, ...REF_PREFIX.split("/").filter(Boolean));
      await writeFile(join(refs, number), `${id}\n`);
      const checkpoint = { id, label, createdAt };
      list.push(checkpoint);
      return checkpoint;
    });
  }

  /** The checkpoints, oldest first. */
  list(): Promise<Checkpoint[]> {
    return this.#serial(async () => [...(await this.#list())]);
  }

  /**
   * The files changed since checkpoint `since`, sorted by path; files over the size cap are
   * among them, marked `tooLarge` with their `size`.
   */
  changes(since: string): Promise<FileChange[]> {
    return this.#serial(async () => {
      // The quick way, while no file came or went since the last scan: one git compares the
      // work tree with the checkpoint (the index only as a stat cache, as `git diff` does). It
      // starts while the scan's stamps are checked; its answer counts only if they still hold,
      // and the slow way (which stages into the index) waits for it to end.
      const quick =
        this.#stamps === undefined
          ? undefined
          : this.#git.run(["--no-optional-locks", "diff", "-z", "-M", "--raw", "--numstat", since]);
      const large = await this.#stillLarge();
      const out = await quick?.catch((error: unknown) => {
        if (large !== undefined) throw error;
        return undefined;
      });
      if (large !== undefined && out !== undefined) {
        const changes = parseRawNumstat(out.stdout.toString("utf8"));
        // A changed `.gitignore` may change which files git sees: scanned afresh.
        if (!changes.some((c) => /(^|\/)\.gitignore$/.test(c.path)))
          return this.#withLarge(since, changes, large);
      }
      const scannedAt = Date.now();
      const untracked = await this.#untracked(true);
      await this.#add(untracked.large);
      this.#large = untracked.large;
      this.#stamps = await DirectoryStamps.capture(
        this.#workspace,
        untracked.seen,
        (dirs) => this.#ignored(dirs),
        scannedAt,
      );
      return this.#withLarge(since, await this.#stagedChanges(since), untracked.large);
    });
  }

  /** The unified diff of one changed file since `since` ("" when it did not change or is too large). */
  diff(since: string, path: string): Promise<string> {
    return this.#serial(async () => {
      await this.#stage();
      const change = (await this.#stagedChanges(since)).find((c) => c.path === path);
      if (change === undefined) return "";
      const paths = change.oldPath === undefined ? [path] : [change.oldPath, path];
      const out = await this.#git.run(["diff", "--cached", "-M", since, "--", ...paths]);
      return out.stdout.toString("utf8");
    });
  }

  /**
   * Puts one file back as it was at `since`: its content and mode, or removes it if it did not
   * exist then; a renamed file goes back to its old path. A file over the size cap that existed
   * at `since` cannot be put back: a {@link CheckpointError} (`too_large_to_restore`), nothing
   * changed.
   */
  revertFile(since: string, path: string): Promise<void> {
    return this.#serial(async () => {
      this.#stamps = undefined;
      const large = await this.#stage();
      const changes = await this.#withLarge(since, await this.#stagedChanges(since), large);
      const change = changes.find((c) => c.path === path);
      if (change === undefined) return;
      if (change.tooLarge === true && change.status !== "added")
        throw new CheckpointError("too_large_to_restore", [path]);
      if (change.status === "added" || change.status === "renamed") {
        await rm(join(this.#workspace, path), { force: true });
        await this.#git.run(["rm", "-q", "--cached", "--ignore-unmatch", "--", path]);
      }
      const old =
        change.status === "renamed" ? change.oldPath : change.status === "added" ? undefined : path;
      if (old !== undefined) await this.#git.run(["checkout", since, "--", old]);
    });
  }

  /**
   * Restores the whole workspace to checkpoint `id` (ignored files are left alone; files over the
   * size cap created since are removed like any other). When a file over the cap existed at `id`
   * and changed since, it cannot be put back: a {@link CheckpointError}
   * (`too_large_to_restore`) naming them, and nothing is changed.
   */
  restore(id: string): Promise<void> {
    return this.#serial(async () => {
      this.#stamps = undefined;
      const large = await this.#stage();
      const changes = await this.#withLarge(id, await this.#stagedChanges(id), large);
      const lost = changes.filter((c) => c.tooLarge === true && c.status !== "added");
      if (lost.length > 0)
        throw new CheckpointError(
          "too_large_to_restore",
          lost.map((c) => c.path),
        );
      await this.#git.run(["read-tree", "-u", "--reset", id]);
      for (const change of changes)
        if (change.tooLarge === true) await rm(join(this.#workspace, change.path), { force: true });
    });
  }

  /** Untracked files over the size cap (not snapshotted), by path. */
  skipped(): Promise<string[]> {
    return this.#serial(async () => [...(await this.#untracked()).large.keys()].sort());
  }

  async #init(): Promise<void> {
    await mkdir(this.#gitDir, { recursive: true, mode: 0o700 });
    this.#excludeFile = (await inheritedIgnores(this.#workspace)) + this.#excludeFile;
    await this.#git.run(["init", "-q", `--initial-branch=${BRANCH}`]);
    await mkdir(join(this.#gitDir, ...REF_PREFIX.split("/").filter(Boolean)), { recursive: true });
    await writeFile(join(this.#gitDir, "info", "exclude"), this.#excludeFile);
    for (const [key, value] of [
      ["core.autocrlf", "false"],
      ["core.safecrlf", "false"],
      ["core.quotepath", "false"],
      ["gc.auto", "0"],
      ["feature.manyFiles", "true"],
      ["commit.gpgSign", "false"],
    ] as const)
      await this.#git.run(["config", key, value]);
  }

  /** Brings the shadow index up to the workspace (all but ignored and oversized files): those. */
  async #stage(): Promise<LargeFiles> {
    const { large } = await this.#untracked();
    await this.#add(large);
    return large;
  }

  /** `git add -A`, leaving out `large` (untracked files over the cap). */
  async #add(large: LargeFiles): Promise<void> {
    const excluded = [...large.keys()].map((path) => `:(exclude,literal)${path}`);
    await this.#git.run(["add", "-A", "--ignore-errors", "--", ".", ...excluded], {
      okCodes: [0, 1],
    });
  }

  /**
   * The untracked, not ignored files over the size cap; with `tracked`, also every file git sees
   * (tracked or not) in `seen`.
   */
  async #untracked(tracked = false): Promise<{ large: Map<string, LargeFile>; seen: string[] }> {
    const which = tracked ? ["-t", "--cached"] : [];
    const out = await this.#git.run(["ls-files", "-z", ...which, "--others", "--exclude-standard"]);
    const seen: string[] = [];
    const large = new Map<string, LargeFile>();
    for (const entry of out.stdout.toString("utf8").split("\0")) {
      if (entry === "") continue;
      // With -t, each entry is tagged: `? ` for an untracked file.
      const path = tracked ? entry.slice(2) : entry;
      seen.push(path);
      if (tracked && !entry.startsWith("? ")) continue;
      const info = await lstat(join(this.#workspace, path)).catch(() => undefined);
      if (info?.isFile() === true && info.size > this.#maxFileBytes)
        large.set(path, { size: info.size, mtimeMs: Math.trunc(info.mtimeMs) });
    }
    return { large, seen };
  }

  /**
   * The files over the cap as they are now, when no file came or went since the last scan and
   * each is still over the cap; otherwise `undefined` (a scan is due).
   */
  async #stillLarge(): Promise<LargeFiles | undefined> {
    if (this.#stamps === undefined || !(await this.#stamps.unchanged())) return undefined;
    const now = new Map<string, LargeFile>();
    for (const path of this.#large.keys()) {
      const info = await lstat(join(this.#workspace, path)).catch(() => undefined);
      if (info === undefined || info.size <= this.#maxFileBytes) return undefined;
      now.set(path, { size: info.size, mtimeMs: Math.trunc(info.mtimeMs) });
    }
    return now;
  }

  /** Which of `dirs` (relative, `/`-separated) git ignores. */
  async #ignored(dirs: readonly string[]): Promise<ReadonlySet<string>> {
    const out = await this.#git.run(["check-ignore", "-z", "--stdin"], {
      okCodes: [0, 1],
      stdin: `${dirs.join("\0")}\0`,
    });
    return new Set(out.stdout.toString("utf8").split("\0").filter(Boolean));
  }

  /** The changes of the shadow index since `since`. */
  async #stagedChanges(since: string): Promise<FileChange[]> {
    const out = await this.#git.run(["diff", "--cached", "-z", "-M", "--raw", "--numstat", since]);
    return parseRawNumstat(out.stdout.toString("utf8"));
  }

  /** `changes` with the files over the cap since `since` merged in (`now`: those there now). */
  async #withLarge(since: string, changes: FileChange[], now: LargeFiles): Promise<FileChange[]> {
    const then = this.#largeAt.get(since) ?? (await loadLargeFiles(this.#gitDir, since));
    this.#largeAt.set(since, then);
    const present = new Set<string>();
    for (const path of then.keys())
      if (!now.has(path) && (await lstat(join(this.#workspace, path)).catch(() => undefined)))
        present.add(path);
    return withLargeFiles(changes, then, now, (path) => present.has(path));
  }

  async #list(): Promise<Checkpoint[]> {
    if (this.#checkpoints !== undefined) return this.#checkpoints;
    const out = await this.#git.run([
      "for-each-ref",
      "--sort=refname",
      "--format=%(objectname)%00%(authordate:unix)%00%(subject)",
      REF_PREFIX,
    ]);
    this.#checkpoints = out.stdout
      .toString("utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [id, seconds, label] = line.split("\0") as [string, string, string];
        return { id, label, createdAt: Number(seconds) * 1000 };
      });
    return this.#checkpoints;
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(task, task);
    this.#queue = next.catch(() => undefined);
    return next;
  }
}

/** Exclude-file lines that match exactly `paths` (anchored, special characters escaped). */
function excludeLines(paths: readonly string[]): string {
  return paths.map((path) => `/${path.replace(/[\\*?[\]!# ]/g, (c) => `\\${c}`)}\n`).join("");
}
