/**
 * The uploads of a bridge's sessions: files declared with a name and a size, their bytes appended
 * in order, each to a `.part` file in a fresh directory of `.pi-kit/uploads/` in the session's
 * workspace, renamed to the sanitised name once complete. Files are private (0600, never
 * executable), directories too (0700); a `.pi-kit` or `.pi-kit/uploads` that is a link is never
 * followed, and files are created exclusively, never over what is there. Unfinished uploads live
 * in memory: a restarted bridge has forgotten them (their chunks then get `unknown_upload`).
 */
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { lstat, mkdir, open, readdir, realpath, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import {
  DEFAULT_UPLOAD_LIMITS,
  UPLOADS_DIR,
  type UploadLimits,
  type UploadQuota,
  type UploadStatus,
} from "@pi-kit/protocol/bridge";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";
import type { SessionKey } from "../principals/owner.ts";
import { safeUploadName } from "./upload-name.ts";

/** The bridge's `uploads` option: any of the limits (the rest are the defaults). */
export type UploadSettings = Partial<UploadLimits>;

/** The name of an unfinished upload's bytes in its directory (stored names never start with a dot). */
const PART = ".part";
/** An upload id: 9 random bytes in base64url. */
const ID = /^[A-Za-z0-9_-]{12}$/;
/** An unfinished upload no chunk came for this long is dropped: a tab closed mid-upload holds no place. */
export const UNFINISHED_IDLE_MS = 15 * 60_000;
/** Appends without following a link put in the part file's place. */
const APPEND = constants.O_WRONLY | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0);

/** A chunk sent at another offset than the bridge's copy ends at, or past the size: a 409 with the status. */
export class UploadOffsetError extends BridgeError {
  /** Where the upload is: the client resumes at its `received`. */
  readonly upload: UploadStatus;

  constructor(upload: UploadStatus, message: string) {
    super(BridgeErrorCode.UploadOffsetMismatch, message);
    this.upload = upload;
  }
}

interface Unfinished {
  readonly id: string;
  readonly name: string;
  readonly size: number;
  received: number;
  /** A chunk is being written: another one at the same time is refused. */
  busy: boolean;
  /** When it was declared or its last chunk ended (the clock's milliseconds). */
  touched: number;
}

/** The limits of `settings`, checked: each a whole number (files at least 1). */
export function uploadLimits(settings: UploadSettings = {}): UploadLimits {
  const limits = { ...DEFAULT_UPLOAD_LIMITS, ...settings };
  for (const [key, value] of Object.entries(limits)) {
    const least = key === "maxFilesPerMessage" ? 1 : 0;
    if (!Number.isSafeInteger(value) || value < least)
      throw new BridgeError(
        BridgeErrorCode.InvalidOptions,
        `uploads.${key} must be a whole number from ${least}, got ${String(value)}`,
      );
  }
  return limits;
}

/** Every session's uploads on one bridge. */
export class SessionUploads {
  /** The limits every session gets. */
  readonly limits: UploadLimits;
  readonly #workspaceOf: (key: SessionKey) => Promise<string>;
  readonly #unfinished = new Map<SessionKey, Map<string, Unfinished>>();
  readonly #now: () => number;

  /** `workspaceOf` is where session `key`'s pi works; `now` the clock idle uploads are dropped by. */
  constructor(
    settings: UploadSettings,
    workspaceOf: (key: SessionKey) => Promise<string>,
    now: () => number = Date.now,
  ) {
    this.limits = uploadLimits(settings);
    this.#workspaceOf = workspaceOf;
    this.#now = now;
  }

  /** The limits and the bytes session `key`'s uploads take. */
  async quota(key: SessionKey): Promise<UploadQuota> {
    return { limits: this.limits, usedBytes: await this.#used(key, await this.#dir(key, false)) };
  }

  /** Declares an upload of `request` (the body of the POST); resolves its status. */
  async declare(key: SessionKey, request: Record<string, unknown>): Promise<UploadStatus> {
    const { name: raw, size } = request;
    if (typeof raw !== "string" || !Number.isSafeInteger(size) || (size as number) < 0)
      throw new BridgeError(
        BridgeErrorCode.InvalidRequest,
        'The body must be JSON: {"name": string, "size": whole number of bytes}',
      );
    const bytes = size as number;
    const { maxFileBytes, maxFilesPerMessage, maxSessionBytes } = this.limits;
    if (bytes > maxFileBytes)
      throw new BridgeError(
        BridgeErrorCode.UploadTooLarge,
        `A file may have at most ${maxFileBytes} bytes; this one has ${bytes}`,
      );
    const unfinished = this.#of(key);
    await this.#dropIdle(key, unfinished);
    if (unfinished.size >= maxFilesPerMessage)
      throw new BridgeError(
        BridgeErrorCode.TooManyUploads,
        `At most ${maxFilesPerMessage} uploads at once: finish one first`,
      );
    const dir = (await this.#dir(key, true)) as string;
    const used = await this.#used(key, dir);
    if (used + bytes > maxSessionBytes)
      throw new BridgeError(
        BridgeErrorCode.UploadQuotaExceeded,
        `The session's uploads may take ${maxSessionBytes} bytes in all; ${used} are taken`,
      );
    const id = randomBytes(9).toString("base64url");
    const name = safeUploadName(raw);
    await mkdir(join(dir, id), { mode: 0o700 });
    // An empty file is complete at once; any other gets its part file, created, never reused.
    await (await open(join(dir, id, bytes === 0 ? name : PART), "wx", 0o600)).close();
    const upload: Unfinished = {
      id,
      name,
      size: bytes,
      received: 0,
      busy: false,
      touched: this.#now(),
    };
    if (bytes > 0) unfinished.set(id, upload);
    return statusOf(upload, bytes === 0);
  }

  /** Where upload `id` of session `key` is: unfinished ones from memory, complete ones from disk. */
  async status(key: SessionKey, id: string): Promise<UploadStatus> {
    const upload = this.#unfinished.get(key)?.get(id);
    if (upload !== undefined) return statusOf(upload, false);
    return this.#complete(key, id);
  }

  /**
   * Appends `body` to upload `id` at `offset` (the query's text): only where the bridge's copy
   * ends, never past the declared size (both an {@link UploadOffsetError}). Bytes written before
   * the body broke off count: the client resumes after them. Complete, the file gets its name.
   */
  async append(
    key: SessionKey,
    id: string,
    offset: string | undefined,
    length: string | undefined,
    body: ReadableStream<Uint8Array> | null,
  ): Promise<UploadStatus> {
    const upload = this.#unfinished.get(key)?.get(id);
    if (upload === undefined) {
      const done = await this.#complete(key, id);
      throw new UploadOffsetError(done, "The upload is complete");
    }
    if (offset === undefined || !/^\d{1,15}$/.test(offset))
      throw new BridgeError(BridgeErrorCode.InvalidRequest, "`offset` must be a whole number");
    const at = Number(offset);
    if (upload.busy || at !== upload.received)
      throw new UploadOffsetError(
        statusOf(upload, false),
        upload.busy
          ? "Another chunk of this upload is being written"
          : `The bridge has ${upload.received} bytes: send the chunk at offset ${upload.received}`,
      );
    if (length !== undefined && /^\d+$/.test(length) && at + Number(length) > upload.size)
      throw new UploadOffsetError(statusOf(upload, false), "The chunk goes past the size");
    upload.busy = true;
    let overflow = false;
    try {
      const dir = await this.#dir(key, false);
      if (dir === undefined) throw unsafe();
      const file = await open(join(await this.#own(dir, id), PART), APPEND);
      const reader = body?.getReader();
      try {
        while (reader !== undefined) {
          const { done, value } = await reader.read();
          if (done) break;
          const take = Math.min(value.byteLength, upload.size - upload.received);
          if (take > 0) await file.write(value.subarray(0, take));
          upload.received += take;
          if (take < value.byteLength) {
            overflow = true;
            await reader.cancel().catch(() => {});
            break;
          }
        }
      } catch {
        // The body broke off (the client went away): what was written stays, to resume from.
      } finally {
        await file.close();
      }
      // Removed while its chunk came: the bytes went to a file no longer there.
      if (this.#unfinished.get(key)?.get(id) !== upload) throw unknown();
      if (upload.received === upload.size) {
        await rename(join(await this.#own(dir, id), PART), join(dir, id, upload.name));
        this.#unfinished.get(key)?.delete(id);
      }
    } finally {
      upload.busy = false;
      upload.touched = this.#now();
    }
    const status = statusOf(upload, upload.received === upload.size);
    if (overflow) throw new UploadOffsetError(status, "The chunk went past the size");
    return status;
  }

  /** Removes upload `id` of session `key`, unfinished or complete, with its file. */
  async remove(key: SessionKey, id: string): Promise<void> {
    const unfinished = this.#unfinished.get(key);
    if (!unfinished?.delete(id)) await this.#complete(key, id);
    const dir = await this.#dir(key, false);
    if (dir !== undefined) await rm(await this.#own(dir, id), { recursive: true, force: true });
  }

  /** Drops (and removes) the unfinished uploads of `key` no chunk came for in {@link UNFINISHED_IDLE_MS}. */
  async #dropIdle(key: SessionKey, unfinished: Map<string, Unfinished>): Promise<void> {
    const before = this.#now() - UNFINISHED_IDLE_MS;
    for (const upload of [...unfinished.values()]) {
      if (!upload.busy && upload.touched < before) await this.remove(key, upload.id);
    }
  }

  #of(key: SessionKey): Map<string, Unfinished> {
    const uploads = this.#unfinished.get(key) ?? new Map<string, Unfinished>();
    this.#unfinished.set(key, uploads);
    return uploads;
  }

  /**
   * `.pi-kit/uploads` in session `key`'s workspace (its real path), created (0700) when `create`;
   * `undefined` when absent. Refuses (`uploads_off`) when either is a link or no directory.
   */
  async #dir(key: SessionKey, create: boolean): Promise<string | undefined> {
    let dir = await realpath(await this.#workspaceOf(key));
    for (const part of UPLOADS_DIR.split("/")) {
      dir = join(dir, part);
      if (create) {
        try {
          await mkdir(dir, { mode: 0o700 });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        }
      }
      const stat = await lstat(dir).catch(() => undefined);
      if (stat === undefined) return undefined;
      if (!stat.isDirectory()) throw unsafe();
    }
    return dir;
  }

  /** `dir/id`, once it is checked to be a directory and no link. */
  async #own(dir: string, id: string): Promise<string> {
    const path = join(dir, id);
    if (!(await lstat(path)).isDirectory()) throw unsafe();
    return path;
  }

  /** The bytes session `key`'s uploads take: complete ones on disk, unfinished ones as declared. */
  async #used(key: SessionKey, dir: string | undefined): Promise<number> {
    const unfinished = this.#unfinished.get(key) ?? new Map<string, Unfinished>();
    let used = 0;
    for (const upload of unfinished.values()) used += upload.size;
    if (dir === undefined) return used;
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || unfinished.has(entry.name)) continue;
      for (const file of await readdir(join(dir, entry.name), { withFileTypes: true })) {
        if (file.isFile()) used += (await lstat(join(dir, entry.name, file.name))).size;
      }
    }
    return used;
  }

  /** The status of complete upload `id`, from its directory; `unknown_upload` when there is none. */
  async #complete(key: SessionKey, id: string): Promise<UploadStatus> {
    const dir = ID.test(id) ? await this.#dir(key, false) : undefined;
    const own = dir === undefined ? undefined : await this.#own(dir, id).catch(() => undefined);
    const files = own === undefined ? [] : await readdir(own, { withFileTypes: true });
    const file = files.find((f) => f.isFile() && f.name !== PART);
    if (own === undefined || file === undefined || files.some((f) => f.name === PART))
      throw unknown();
    const size = (await lstat(join(own, file.name))).size;
    return statusOf({ id, name: file.name, size, received: size, busy: false, touched: 0 }, true);
  }
}

function statusOf(upload: Unfinished, complete: boolean): UploadStatus {
  const { id, name, size, received } = upload;
  return { id, name, path: `${UPLOADS_DIR}/${id}/${name}`, size, received, complete };
}

function unknown(): BridgeError {
  return new BridgeError(BridgeErrorCode.UnknownUpload, "No upload of the session has that id");
}

function unsafe(): BridgeError {
  return new BridgeError(
    BridgeErrorCode.UploadsOff,
    `${UPLOADS_DIR} in this workspace is a link or not a directory: the bridge does not follow it`,
  );
}
