/**
 * A warm index of one workspace's files and directories for `@` mentions, on Node: walked once,
 * then kept up to date by file system watches (one recursive watch on macOS and Windows, one per
 * indexed directory elsewhere), so a file written a moment ago is found. Without watches (turned
 * off, failed, or too many directories) a search re-walks the tree when the index is older than
 * `maxAgeMs`. It honours `.gitignore`, leaves out hidden directories, and never leaves the
 * workspace through a link or `..`.
 * @module
 */
import { type FSWatcher, watch } from "node:fs";
import { realpath } from "node:fs/promises";
import { sep } from "node:path";
import type { FileSearchPage } from "@pi-kit/protocol/bridge";
import { DEFAULT_FILE_PAGE_SIZE, MAX_FILE_PAGE_SIZE } from "@pi-kit/protocol/bridge";
import { SessionHistoryError, SessionHistoryErrorCode } from "../../history/history-error.ts";
import {
  type FileSearch,
  type FileSearchQuery,
  fileCursor,
  fileQueryProblem,
  parseFileCursor,
} from "../file-search.ts";
import { charMask, pathPenalty, type RankablePaths, rankPaths } from "../rank-paths.ts";
import type { IgnoreChain } from "./gitignore-rules.ts";
import { readWorkspaceDirectory, type WorkspaceRoot } from "./walk-workspace.ts";

/** Options of a {@link WorkspaceFileIndex}. */
export interface WorkspaceFileIndexOptions {
  /** The workspace: pi's working directory. */
  readonly workspace: string;
  /** Whether to keep the index up to date by watching the tree. Default `true`. */
  readonly watch?: boolean;
  /** Without watches, a search re-walks an index older than this. Default 2000 ms. */
  readonly maxAgeMs?: number;
  /** The most entries kept; a larger tree is indexed in part. Default 250,000. */
  readonly maxEntries?: number;
  /** The most directories watched one by one; past it the index falls back to re-walks. Default 8192. */
  readonly maxWatchedDirectories?: number;
}

const READ_CONCURRENCY = 16;
/** Platforms whose `fs.watch` watches a tree natively. */
const RECURSIVE_WATCH = process.platform === "darwin" || process.platform === "win32";

/**
 * The files of one workspace, searchable by fuzzy query.
 * @example
 * const index = new WorkspaceFileIndex({ workspace: process.cwd() });
 * const { entries } = await index.search({ query: "readme" });
 * index.close();
 */
export class WorkspaceFileIndex implements FileSearch {
  readonly #workspace: string;
  readonly #watch: boolean;
  readonly #maxAgeMs: number;
  readonly #maxEntries: number;
  readonly #maxWatched: number;
  /**
   * Each indexed directory's children (`""` is the root): name → whether it is a directory. Keyed
   * by name, not path: a first search builds it for every file, and short names hash cheaply.
   */
  readonly #children = new Map<string, Map<string, boolean>>();
  /** How many entries `#children` holds. */
  #size = 0;
  /** The `.gitignore` rules in force inside each indexed directory. */
  readonly #chains = new Map<string, IgnoreChain>();
  readonly #watchers = new Map<string, FSWatcher>();
  /** Directories a watch saw change, to read again before the next search. */
  readonly #dirty = new Set<string>();
  #root: WorkspaceRoot | undefined;
  #walkedAt = Number.NEGATIVE_INFINITY;
  #rewalk = true;
  #watching = false;
  #closed = false;
  #ranked: RankedEntries | undefined;
  /** Updates run one at a time; a search waits for the one before it. */
  #update: Promise<void> = Promise.resolve();

  constructor(options: WorkspaceFileIndexOptions) {
    this.#workspace = options.workspace;
    this.#watch = options.watch !== false;
    this.#maxAgeMs = options.maxAgeMs ?? 2000;
    this.#maxEntries = options.maxEntries ?? 250_000;
    this.#maxWatched = options.maxWatchedDirectories ?? 8192;
  }

  /** How many files and directories the index holds. */
  get size(): number {
    return this.#size;
  }

  /** Whether watches keep the index up to date (else searches re-walk a stale one). */
  get watching(): boolean {
    return this.#watching;
  }

  /** One page of the workspace's entries matching `query`, best first. */
  async search(query: FileSearchQuery): Promise<FileSearchPage> {
    const problem = fileQueryProblem(query.query);
    if (problem !== undefined) throw invalid(problem, "invalid_query");
    const offset = query.cursor === undefined ? 0 : parseFileCursor(query.cursor);
    if (offset === undefined)
      throw invalid("The cursor is not one this search gave out", "invalid_cursor");
    const limit = query.limit ?? DEFAULT_FILE_PAGE_SIZE;
    if (!Number.isInteger(limit) || limit < 1) {
      throw invalid("`limit` must be a whole number from 1", "invalid_request");
    }
    await this.#fresh();
    query.signal?.throwIfAborted();
    const ranked = this.#rankable();
    const size = Math.min(limit, MAX_FILE_PAGE_SIZE);
    const { indexes, total } = rankPaths(ranked, query.query, offset, size);
    const entries = indexes.map(
      (i) =>
        ({
          path: ranked.paths[i] as string,
          kind: ranked.directory[i] ? "directory" : "file",
        }) as const,
    );
    return { entries, nextCursor: offset + size < total ? fileCursor(offset + size) : null };
  }

  /** Walks the whole tree again before the next search (for example after a bulk change). */
  refresh(): Promise<void> {
    this.#rewalk = true;
    return this.#fresh();
  }

  /** Stops watching; later searches re-walk when the index is stale. */
  close(): void {
    this.#closed = true;
    this.#unwatchAll();
  }

  /** Brings the index up to date: pending watch events first, then a walk or the dirty directories. */
  async #fresh(): Promise<void> {
    // Two immediates pass one poll phase of the event loop, which delivers the watch events the
    // system already queued (one alone may run before it, when called from an I/O callback).
    for (let turn = 0; turn < 2; turn++) await new Promise<void>((r) => setImmediate(r));
    const next = this.#update.then(() => this.#apply());
    this.#update = next.catch(() => undefined);
    await next;
  }

  async #apply(): Promise<void> {
    const stale = !this.#watching && performance.now() - this.#walkedAt > this.#maxAgeMs;
    if (this.#rewalk || stale) {
      await this.#walkAll();
      return;
    }
    if (this.#dirty.size === 0) return;
    const dirs = [...this.#dirty];
    this.#dirty.clear();
    for (const dir of dirs) await this.#reread(dir);
  }

  async #walkAll(): Promise<void> {
    this.#rewalk = false;
    this.#unwatchAll();
    this.#dirty.clear();
    this.#children.clear();
    this.#size = 0;
    this.#chains.clear();
    this.#ranked = undefined;
    const started = performance.now();
    const real = await realpath(this.#workspace).catch(() => undefined);
    this.#root = real === undefined ? undefined : { real };
    if (real !== undefined) {
      this.#watching = this.#watch && !this.#closed;
      if (this.#watching && RECURSIVE_WATCH) this.#watchTree(real);
      await this.#walk([["", []]]);
    }
    this.#walkedAt = started;
  }

  /** Reads the directories of `queue` and everything below them, a few at a time. */
  async #walk(queue: Array<[string, IgnoreChain]>): Promise<void> {
    const root = this.#root;
    if (root === undefined) return;
    await new Promise<void>((resolve) => {
      let active = 0;
      const pump = (): void => {
        while (active < READ_CONCURRENCY && queue.length > 0) {
          const [dir, chain] = queue.pop() as [string, IgnoreChain];
          active++;
          void this.#readInto(root, dir, chain, queue).finally(() => {
            active--;
            if (active === 0 && queue.length === 0) resolve();
            else pump();
          });
        }
        if (active === 0 && queue.length === 0) resolve();
      };
      pump();
    });
  }

  async #readInto(
    root: WorkspaceRoot,
    dir: string,
    chain: IgnoreChain,
    queue: Array<[string, IgnoreChain]>,
  ): Promise<void> {
    // Watch before reading, so nothing written in between is missed.
    if (this.#watching && !RECURSIVE_WATCH) this.#watchDirectory(root, dir);
    const read = await readWorkspaceDirectory(root, dir, chain).catch(() => undefined);
    if (read === undefined) {
      this.#unwatch(dir);
      return;
    }
    this.#chains.set(dir, read.chain);
    const children = new Map<string, boolean>();
    this.#children.set(dir, children);
    const prefix = dir === "" ? "" : `${dir}/`;
    for (const entry of read.entries) {
      if (this.#size >= this.#maxEntries) break;
      children.set(entry.name, entry.directory);
      this.#size++;
      if (entry.enter) queue.push([prefix + entry.name, read.chain]);
    }
    this.#ranked = undefined;
  }

  /** Reads directory `dir` again after a watch saw it change, and applies the difference. */
  async #reread(dir: string): Promise<void> {
    const root = this.#root;
    const before = this.#children.get(dir);
    if (root === undefined || before === undefined) return;
    const read = await readWorkspaceDirectory(root, dir, this.#chains.get(parentOf(dir)) ?? []);
    const now = new Map((read?.entries ?? []).map((e) => [e.name, e] as const));
    const prefix = dir === "" ? "" : `${dir}/`;
    for (const [name, directory] of before) {
      if (now.get(name)?.directory !== directory) this.#remove(prefix + name);
    }
    if (read === undefined) return;
    const queue: Array<[string, IgnoreChain]> = [];
    for (const entry of now.values()) {
      if (before.has(entry.name) || this.#size >= this.#maxEntries) continue;
      before.set(entry.name, entry.directory);
      this.#size++;
      if (entry.enter) queue.push([prefix + entry.name, read.chain]);
    }
    this.#ranked = undefined;
    await this.#walk(queue);
  }

  /** Removes `path` and, for a directory, everything indexed below it. */
  #remove(path: string): void {
    if (this.#children.get(parentOf(path))?.delete(path.slice(path.lastIndexOf("/") + 1))) {
      this.#size--;
    }
    const below = this.#children.get(path);
    if (below !== undefined) for (const name of [...below.keys()]) this.#remove(`${path}/${name}`);
    this.#children.delete(path);
    this.#chains.delete(path);
    this.#unwatch(path);
    this.#ranked = undefined;
  }

  #rankable(): RankedEntries {
    if (this.#ranked !== undefined) return this.#ranked;
    const paths: string[] = [];
    const lower: string[] = [];
    const nameStart: number[] = [];
    const penalty: number[] = [];
    const masks: number[] = [];
    const directory: boolean[] = [];
    // What a directory's entries share (their prefix's depth and letters) is worked out once.
    for (const [dir, children] of this.#children) {
      const prefix = dir === "" ? "" : `${dir}/`;
      const depth = dir === "" ? 0 : dir.split("/").length;
      const prefixMask = charMask(prefix.toLowerCase());
      for (const [name, isDirectory] of children) {
        const path = prefix + name;
        paths.push(path);
        lower.push(path.toLowerCase());
        nameStart.push(prefix.length);
        penalty.push(pathPenalty(depth, path.length));
        masks.push(prefixMask | charMask(name.toLowerCase()));
        directory.push(isDirectory);
      }
    }
    this.#ranked = { paths, lower, nameStart, penalty, masks, directory };
    return this.#ranked;
  }

  #changed(dir: string, name: string | null | undefined): void {
    // A changed `.gitignore` can change what counts anywhere below it.
    if (name === ".gitignore" || name == null) this.#rewalk = true;
    else this.#dirty.add(dir);
  }

  #watchDirectory(root: WorkspaceRoot, dir: string): void {
    if (this.#watchers.has(dir)) return;
    if (this.#watchers.size >= this.#maxWatched) {
      // Too many to watch one by one: stop watching, and re-walk when stale instead.
      this.#watching = false;
      this.#unwatchAll();
      return;
    }
    const full = dir === "" ? root.real : `${root.real}${sep}${dir.split("/").join(sep)}`;
    try {
      const watcher = watch(full, { persistent: false }, (_event, name) =>
        this.#changed(dir, name?.toString()),
      );
      watcher.on("error", () => {
        this.#unwatch(dir);
        this.#dirty.add(parentOf(dir));
        this.#dirty.add(dir);
      });
      this.#watchers.set(dir, watcher);
    } catch {
      // Out of watches (ENOSPC) or gone: fall back to re-walks.
      this.#watching = false;
      this.#unwatchAll();
    }
  }

  #watchTree(real: string): void {
    try {
      const watcher = watch(real, { persistent: false, recursive: true }, (_event, name) => {
        if (name == null) return this.#changed("", null);
        const path = name.toString().split(sep).join("/");
        const slash = path.lastIndexOf("/");
        this.#changed(slash < 0 ? "" : path.slice(0, slash), path.slice(slash + 1));
      });
      watcher.on("error", () => {
        this.#watching = false;
        this.#unwatchAll();
      });
      this.#watchers.set("", watcher);
    } catch {
      this.#watching = false;
    }
  }

  #unwatch(dir: string): void {
    this.#watchers.get(dir)?.close();
    this.#watchers.delete(dir);
  }

  #unwatchAll(): void {
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }
}

/** The index's paths, ranked by {@link rankPaths}, and which of them are directories. */
interface RankedEntries extends RankablePaths {
  readonly directory: readonly boolean[];
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

function invalid(message: string, hostCode: string): SessionHistoryError {
  return new SessionHistoryError(SessionHistoryErrorCode.InvalidRequest, message, { hostCode });
}
