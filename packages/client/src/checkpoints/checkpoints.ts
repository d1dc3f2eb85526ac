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
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { CheckpointSummary, FileChange, FileChangeStatus } from "@pi-kit/protocol/bridge";
import { type ShadowGit, shadowGit } from "./git-command.ts";
import { inheritedIgnores } from "./inherited-ignores.ts";

export type { FileChange, FileChangeStatus };

/** Options of {@link Checkpoints.open}. */
export interface CheckpointsOptions {
  /** The workspace to take checkpoints of (pi's working directory). */
  readonly workspace: string;
  /** Where the shadow repository lives: a directory outside the workspace, created if missing. */
  readonly dir: string;
  /** Untracked files larger than this are left out of checkpoints (and listed as skipped). Default 5 MiB. */
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
const STATUS: Readonly<Record<string, FileChangeStatus>> = {
  A: "added",
  M: "modified",
  T: "modified",
  D: "deleted",
  R: "renamed",
};

/** The checkpoints of one workspace. */
export class Checkpoints {
  readonly #git: ShadowGit;
  readonly #gitDir: string;
  readonly #workspace: string;
  readonly #maxFileBytes: number;
  /**
   * The exclude file's fixed lines: the `.gitignore` rules the workspace inherits from the
   * repository it lies in, then {@link CheckpointsOptions.exclude}.
   */
  #alwaysExcluded: string;
  /** The checkpoints, read once from the refs, then kept up to date here. */
  #checkpoints: Checkpoint[] | undefined;
  /** The files the exclude file lists now (left out for their size). */
  #excluded: readonly string[] = [];
  /** One git operation at a time: they share the shadow index. */
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(options: CheckpointsOptions) {
    this.#gitDir = join(options.dir, "git");
    this.#workspace = options.workspace;
    this.#maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.#alwaysExcluded = excludeLines(options.exclude ?? []);
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
      await this.#stage();
      // One process writes the tree, the commit and the branch; the id is read from the ref file.
      await this.#git.run(["commit", "-q", "--no-verify", "--allow-empty", "-m", label]);
      const id = (await readFile(join(this.#gitDir, "refs", "heads", BRANCH), "utf8")).trim();
      const list = await this.#list();
      const number = String(list.length + 1).padStart(6, "0");
      const refs = join(this.#gitDir, ...REF_PREFIX.split("/").filter(Boolean));
      await writeFile(join(refs, number), `${id}\n`);
      const checkpoint = { id, label, createdAt: Date.now() };
      list.push(checkpoint);
      return checkpoint;
    });
  }

  /** The checkpoints, oldest first. */
  list(): Promise<Checkpoint[]> {
    return this.#serial(async () => [...(await this.#list())]);
  }

  /** The files changed since checkpoint `since`, sorted by path. */
  changes(since: string): Promise<FileChange[]> {
    return this.#serial(async () => {
      // The quick way: `git add -A` with the files excluded so far, then a look at the sizes of
      // the files it added (a full scan for oversized files costs a walk of the tree).
      await this.#excludeAndAdd(this.#excluded);
      const changes = await this.#changes(since);
      const large: string[] = [];
      for (const change of changes) {
        if (change.status !== "added" && change.status !== "renamed") continue;
        if ((await this.#size(change.path)) > this.#maxFileBytes) large.push(change.path);
      }
      if (large.length === 0) return changes;
      await this.#git.run(["rm", "-q", "--cached", "--", ...large]);
      await this.#excludeAndAdd([...this.#excluded, ...large]);
      return this.#changes(since);
    });
  }

  /** The unified diff of one changed file since `since` ("" when it did not change). */
  diff(since: string, path: string): Promise<string> {
    return this.#serial(async () => {
      await this.#stage();
      const change = (await this.#changes(since)).find((c) => c.path === path);
      if (change === undefined) return "";
      const paths = change.oldPath === undefined ? [path] : [change.oldPath, path];
      const out = await this.#git.run(["diff", "--cached", "-M", since, "--", ...paths]);
      return out.stdout.toString("utf8");
    });
  }

  /**
   * Puts one file back as it was at `since`: its content and mode, or removes it if it did not
   * exist then; a renamed file goes back to its old path.
   */
  revertFile(since: string, path: string): Promise<void> {
    return this.#serial(async () => {
      await this.#stage();
      const change = (await this.#changes(since)).find((c) => c.path === path);
      if (change === undefined) return;
      if (change.status === "added" || change.status === "renamed") {
        await rm(join(this.#workspace, path), { force: true });
        await this.#git.run(["rm", "-q", "--cached", "--ignore-unmatch", "--", path]);
      }
      const old =
        change.status === "renamed" ? change.oldPath : change.status === "added" ? undefined : path;
      if (old !== undefined) await this.#git.run(["checkout", since, "--", old]);
    });
  }

  /** Restores the whole workspace to checkpoint `id` (ignored and skipped files are left alone). */
  restore(id: string): Promise<void> {
    return this.#serial(async () => {
      await this.#stage();
      await this.#git.run(["read-tree", "-u", "--reset", id]);
    });
  }

  /** Files left out of checkpoints for their size (untracked, over `maxFileBytes`), by path. */
  skipped(): Promise<string[]> {
    return this.#serial(async () => {
      await this.#stage();
      return [...this.#excluded].sort();
    });
  }

  async #init(): Promise<void> {
    await mkdir(this.#gitDir, { recursive: true, mode: 0o700 });
    this.#alwaysExcluded = (await inheritedIgnores(this.#workspace)) + this.#alwaysExcluded;
    await this.#git.run(["init", "-q", `--initial-branch=${BRANCH}`]);
    await mkdir(join(this.#gitDir, ...REF_PREFIX.split("/").filter(Boolean)), { recursive: true });
    // Files a previous run left out for their size are looked at again.
    await writeFile(join(this.#gitDir, "info", "exclude"), this.#alwaysExcluded);
    for (const [key, value] of [
      ["core.autocrlf", "false"],
      ["core.safecrlf", "false"],
      ["core.quotepath", "false"],
      ["gc.auto", "0"],
      // Remembers which directories hold no new files: the scans of 10,000 files stay cheap.
      ["core.untrackedCache", "true"],
      ["feature.manyFiles", "true"],
      ["commit.gpgSign", "false"],
    ] as const)
      await this.#git.run(["config", key, value]);
  }

  /** Brings the shadow index up to the workspace: everything but ignored and oversized files. */
  async #stage(): Promise<void> {
    await this.#excludeAndAdd(await this.#oversized());
  }

  /** `git add -A`, leaving out `excluded` (paths relative to the workspace). */
  async #excludeAndAdd(excluded: readonly string[]): Promise<void> {
    await this.#writeExclude(excluded);
    await this.#git.run(["add", "-A", "--ignore-errors", "--", "."], { okCodes: [0, 1] });
  }

  /** The repository's own exclude file lists `excluded`, anchored and escaped. */
  async #writeExclude(excluded: readonly string[]): Promise<void> {
    if (
      excluded.length === this.#excluded.length &&
      excluded.every((p, i) => p === this.#excluded[i])
    )
      return;
    await writeFile(
      join(this.#gitDir, "info", "exclude"),
      this.#alwaysExcluded + excludeLines(excluded),
    );
    this.#excluded = [...excluded];
  }

  /** Untracked, not ignored files over the size cap. */
  async #oversized(): Promise<string[]> {
    await this.#writeExclude([]);
    const out = await this.#git.run(["ls-files", "-z", "--others", "--exclude-standard"]);
    const paths = out.stdout.toString("utf8").split("\0").filter(Boolean);
    const large: string[] = [];
    for (const path of paths) if ((await this.#size(path)) > this.#maxFileBytes) large.push(path);
    return large;
  }

  async #size(path: string): Promise<number> {
    return stat(join(this.#workspace, path)).then(
      (s) => s.size,
      () => 0,
    );
  }

  async #changes(since: string): Promise<FileChange[]> {
    // One process: the raw entries (status and paths), then the line counts.
    const fields = (
      await this.#git.run(["diff", "--cached", "-z", "-M", "--raw", "--numstat", since])
    ).stdout
      .toString("utf8")
      .split("\0");
    const entries: Array<{ path: string; oldPath?: string; status: FileChangeStatus }> = [];
    const counts = new Map<string, { additions: number; deletions: number; binary: boolean }>();
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i] as string;
      if (field === "") continue;
      if (field.startsWith(":")) {
        // ":100644 100644 <old> <new> R100", then the path (a rename: old, then new).
        const code = field.slice(field.lastIndexOf(" ") + 1);
        const status = STATUS[code[0] as string] ?? "modified";
        const oldPath = status === "renamed" ? (fields[++i] as string) : undefined;
        const path = fields[++i] as string;
        entries.push({ path, ...(oldPath === undefined ? {} : { oldPath }), status });
        continue;
      }
      const [added, deleted, inline] = field.split("\t") as [string, string, string];
      let path = inline;
      if (inline === "") {
        // A rename's paths follow as two fields of their own: old, then new.
        i += 2;
        path = fields[i] as string;
      }
      const binary = added === "-";
      counts.set(path, {
        additions: binary ? 0 : Number(added),
        deletions: binary ? 0 : Number(deleted),
        binary,
      });
    }
    return entries
      .map((entry) => ({
        ...entry,
        ...(counts.get(entry.path) ?? { additions: 0, deletions: 0, binary: false }),
      }))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async #list(): Promise<Checkpoint[]> {
    if (this.#checkpoints !== undefined) return this.#checkpoints;
    const out = await this.#git.run([
      "for-each-ref",
      "--sort=refname",
      "--format=%(objectname)%00%(committerdate:unix)%00%(subject)",
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
