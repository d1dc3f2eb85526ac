/**
 * The sessions directory as the history sees it: one record per session directory, indexed in
 * memory and saved to the index file. It is read in full once at start (stat only, for files the
 * index file already knows), after that per session as sessions change, and in the background at
 * most every `rescanMs` when the history is read, for changes made by anyone else. Operations on
 * one session's directory run one at a time.
 */
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { SessionPage, SessionSummary } from "@pi-kit/protocol/bridge";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";
import { type BridgeLogger, safeLog } from "../logging/logger.ts";
import { KeyedLock } from "../sessions/keyed-lock.ts";
import type { LiveState } from "../sessions/session-info.ts";
import { INDEX_FILE, loadIndexFile, saveIndexFile } from "./index-file.ts";
import { type DirectoryRecord, describeError, scanDirectory } from "./session-directory.ts";
import { type PageQuery, SessionIndex } from "./session-index.ts";

/** How many session directories a full scan reads at once. */
const SCAN_CONCURRENCY = 32;

/** Options of a {@link SessionStore}. */
export interface SessionStoreOptions {
  /** The directory holding one directory per session. */
  readonly sessionsDir: string;
  /** Where the index file goes (its directory must exist). Default: in `sessionsDir`. */
  readonly indexPath?: string;
  /** Which directory names are sessions. */
  readonly isSessionName: (name: string) => boolean;
  readonly logger: BridgeLogger;
  /** How stale the index may get before reading the history rescans in the background. */
  readonly rescanMs: number;
  /** How long after a change the index file is saved. */
  readonly saveDelayMs: number;
}

/** The stored sessions of one sessions directory. */
export class SessionStore {
  /** Settles once the first full scan is done; the history waits for it. */
  readonly ready: Promise<void>;
  readonly #options: SessionStoreOptions;
  readonly #index = new SessionIndex();
  readonly #lock = new KeyedLock();
  readonly #indexPath: string;
  #scanning: Promise<void> | undefined;
  #scannedAt = 0;
  #saveTimer: ReturnType<typeof setTimeout> | undefined;
  #saving: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(options: SessionStoreOptions) {
    this.#options = options;
    this.#indexPath = options.indexPath ?? join(options.sessionsDir, INDEX_FILE);
    this.ready = loadIndexFile(this.#indexPath).then((saved) =>
      this.rescan(new Map(saved.map((record) => [record.name, record]))),
    );
  }

  /** The directory of session `name`. */
  dir(name: string): string {
    return join(this.#options.sessionsDir, name);
  }

  /** The record of session `name`, as last read. */
  record(name: string): DirectoryRecord | undefined {
    return this.#index.record(name);
  }

  /** The summary of session `name`, as last read. */
  summary(name: string): SessionSummary | undefined {
    return this.#index.summary(name);
  }

  /** One page of the history. Throws `InvalidCursorError` for a cursor it did not give out. */
  page(query: PageQuery): SessionPage {
    return this.#index.page(query);
  }

  /** Sets the live state of session `name` (`undefined` once its pi has stopped). */
  setLive(name: string, live: LiveState | undefined): void {
    this.#index.setLive(name, live);
  }

  /** Names of the sessions the index holds a live state for. */
  liveNames(): string[] {
    return this.#index.liveNames();
  }

  /** Reads session `name`'s directory again; resolves its record, `undefined` when it is gone. */
  refresh(name: string): Promise<DirectoryRecord | undefined> {
    return this.#lock.run(name, () => this.#refresh(name));
  }

  /** {@link refresh} for a caller inside {@link withDirectory} (which already holds the directory). */
  refreshHeld(name: string): Promise<DirectoryRecord | undefined> {
    return this.#refresh(name);
  }

  /**
   * {@link refreshHeld} for work on the files: throws a `BridgeError` (`session_unreadable`) when
   * the session's directory cannot be read.
   */
  async readableHeld(name: string): Promise<DirectoryRecord | undefined> {
    const record = await this.#refresh(name);
    if (record?.error !== undefined) {
      throw new BridgeError(
        BridgeErrorCode.SessionUnreadable,
        `Cannot read the directory of session ${name}: ${record.error}`,
      );
    }
    return record;
  }

  /** Runs `task` while nothing else reads or writes session `name`'s directory through the store. */
  withDirectory<T>(name: string, task: () => Promise<T>): Promise<T> {
    return this.#lock.run(name, task);
  }

  /** Removes session `name`'s directory with everything in it, and forgets it. */
  remove(name: string): Promise<void> {
    return this.#lock.run(name, async () => {
      await rm(this.dir(name), { recursive: true, force: true });
      this.#index.remove(name);
      this.#scheduleSave();
    });
  }

  /** Reads every session directory again (in the background when called by {@link maybeRescan}). */
  rescan(saved?: ReadonlyMap<string, DirectoryRecord>): Promise<void> {
    this.#scanning ??= this.#scanAll(saved).finally(() => {
      this.#scanning = undefined;
      this.#scannedAt = Date.now();
    });
    return this.#scanning;
  }

  /** Starts a background rescan when the last one is older than `rescanMs`. */
  maybeRescan(): void {
    if (this.#scanning === undefined && Date.now() - this.#scannedAt > this.#options.rescanMs) {
      this.rescan().catch(() => {
        // #scanAll logs and never rejects.
      });
    }
  }

  /** Saves the index file now if it has changes, and stops saving. */
  async close(): Promise<void> {
    await this.#scanning;
    const pending = this.#saveTimer !== undefined;
    clearTimeout(this.#saveTimer);
    this.#saveTimer = undefined;
    this.#closed = true;
    if (pending) this.#save();
    await this.#saving;
  }

  async #refresh(name: string, previous?: DirectoryRecord): Promise<DirectoryRecord | undefined> {
    const before = this.#index.record(name) ?? previous;
    const record = await scanDirectory(this.dir(name), name, before);
    if (record === undefined) {
      if (before !== undefined) {
        this.#index.remove(name);
        this.#scheduleSave();
      }
      return undefined;
    }
    if (record !== before || this.#index.record(name) === undefined) {
      this.#index.put(record);
      if (!sameFiles(record, before)) this.#scheduleSave();
    }
    return record;
  }

  async #scanAll(saved?: ReadonlyMap<string, DirectoryRecord>): Promise<void> {
    let names: string[];
    try {
      names = (await readdir(this.#options.sessionsDir)).filter(this.#options.isSessionName);
    } catch (error) {
      if ((error as { code?: unknown }).code !== "ENOENT") this.#logError("scan", error);
      names = [];
    }
    const present = new Set(names);
    const queue = [...names];
    const worker = async (): Promise<void> => {
      for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
        const next = name;
        await this.#lock.run(next, () => this.#refresh(next, saved?.get(next)));
      }
    };
    await Promise.all(Array.from({ length: SCAN_CONCURRENCY }, worker));
    for (const name of [...this.#index.names()]) {
      if (!present.has(name)) await this.#lock.run(name, () => this.#refresh(name));
    }
    if (saved !== undefined && saved.size !== this.#index.size) this.#scheduleSave();
  }

  #scheduleSave(): void {
    if (this.#closed || this.#saveTimer !== undefined) return;
    this.#saveTimer = setTimeout(() => {
      this.#saveTimer = undefined;
      this.#save();
    }, this.#options.saveDelayMs);
    (this.#saveTimer as { unref?: () => void }).unref?.();
  }

  #save(): void {
    this.#saving = this.#saving
      .then(() => saveIndexFile(this.#indexPath, this.#index.records()))
      .catch((error) => {
        // The sessions directory may not exist yet, or be read-only: the index is only a cache.
        if ((error as { code?: unknown }).code !== "ENOENT") this.#logError("save", error);
      });
  }

  #logError(operation: string, error: unknown): void {
    safeLog(this.#options.logger, {
      event: "history_error",
      operation,
      error: describeError(error),
    });
  }
}

/** Whether two records hold the same files with the same sizes and times. */
function sameFiles(a: DirectoryRecord, b: DirectoryRecord | undefined): boolean {
  if (b === undefined || a.files.length !== b.files.length || a.error !== b.error) return false;
  return a.files.every((file, i) => file === b.files[i]);
}
