/**
 * The {@link Uploads} of one bridge session, over the bridge's upload API with `fetch`: it runs in
 * browsers, Node, Deno and Bun. An upload is declared, then sent in chunks, each at the offset
 * the bridge's copy ends at; a chunk lost to the network (or a 5xx) is resumed from where the
 * bridge has it, a few times with a short growing pause, before the upload rejects. Every call
 * takes an `AbortSignal` and rejects with a `SessionHistoryError` (the history API's error).
 */
import type { UploadQuota, UploadStatus } from "@pi-kit/protocol/bridge";
import { badResponse } from "../history/bridge-json-call.ts";
import { SessionHistoryError, SessionHistoryErrorCode } from "../history/history-error.ts";
import { SessionApi } from "../history/session-api.ts";
import type { BridgeToken } from "../transports/websocket/protocols.ts";
import type { UploadOptions, UploadSource, Uploads } from "./uploads.ts";

/** Options of {@link BridgeUploads}. */
export interface BridgeUploadsOptions {
  /** Where the bridge is: its base URL, or where an app mounts it (`/pi` in a page of the same origin). */
  readonly baseUrl: string | URL;
  /** The session whose workspace takes the files. */
  readonly session: string;
  /** The bridge's token or a per-user ticket (or a function returning a fresh one for each call). */
  readonly token?: BridgeToken;
  /** The `fetch` to use. Default: the global one. */
  readonly fetch?: typeof fetch;
  /**
   * The id of this page's socket on the session (`bridge_control`'s `you.id`): the bridge takes
   * uploads from the controlling socket only. Undefined: not connected.
   */
  readonly connectionId?: () => number | undefined;
  /** The bytes of one chunk. Default 1 MiB. */
  readonly chunkBytes?: number;
  /** How many failed chunks in a row are resumed before the upload rejects. Default 5. */
  readonly retries?: number;
}

/** The first pause before a chunk is resumed; each next one doubles. */
const FIRST_PAUSE_MS = 50;

/**
 * Uploads files to a bridge session's workspace, for a prompt to name as `@path`.
 * @example
 * const uploads = new BridgeUploads({
 *   baseUrl: "http://127.0.0.1:8787", session: "alpha", token,
 *   connectionId: () => control?.you.id,
 * });
 * const { path } = await uploads.upload(file, { onProgress: (sent, size) => show(sent / size) });
 * client.prompt(`Summarise @${path}`);
 */
export class BridgeUploads implements Uploads {
  readonly #api: SessionApi;
  readonly #chunkBytes: number;
  readonly #retries: number;

  constructor(options: BridgeUploadsOptions) {
    this.#api = new SessionApi(options, "/uploads");
    this.#chunkBytes = Math.max(1, Math.floor(options.chunkBytes ?? 1024 * 1024));
    this.#retries = Math.max(0, Math.floor(options.retries ?? 5));
  }

  /** The bridge's limits and the bytes the session's uploads take. */
  async quota(options: { readonly signal?: AbortSignal } = {}): Promise<UploadQuota> {
    const body = (await this.#api.call("GET", "", {}, options.signal)) as Partial<UploadQuota>;
    const limits = body?.limits as Partial<UploadQuota["limits"]> | undefined;
    if (
      typeof body?.usedBytes !== "number" ||
      typeof limits?.maxFileBytes !== "number" ||
      typeof limits.maxFilesPerMessage !== "number" ||
      typeof limits.maxSessionBytes !== "number"
    )
      throw badResponse("quota");
    return { limits: { ...limits } as UploadQuota["limits"], usedBytes: body.usedBytes };
  }

  /** Uploads `file`; resolves its complete status, whose `path` a prompt names as `@path`. */
  async upload(file: UploadSource, options: UploadOptions = {}): Promise<UploadStatus> {
    const { signal, onProgress } = options;
    const declared = { body: { name: file.name, size: file.size } };
    let status = statusOf(await this.#api.call("POST", "", declared, signal, true));
    let failures = 0;
    /** A chunk failed without saying where the bridge's copy ends: ask before the next one. */
    let unsure = false;
    while (!status.complete) {
      try {
        if (signal?.aborted) throw cancelled(signal);
        if (unsure) {
          status = statusOf(await this.#api.call("GET", `/${status.id}`, {}, signal));
          unsure = false;
          continue;
        }
        const end = Math.min(status.received + this.#chunkBytes, status.size);
        const path = `/${status.id}?offset=${status.received}`;
        const raw = file.slice(status.received, end);
        status = statusOf(await this.#api.call("PUT", path, { raw }, signal, true));
        failures = 0;
        onProgress?.(status.received, status.size);
      } catch (error) {
        const resumeAt = mismatched(error);
        if ((resumeAt === undefined && !transient(error)) || ++failures > this.#retries) {
          void this.#forget(status.id);
          throw error;
        }
        if (resumeAt !== undefined) status = resumeAt;
        else unsure = true;
        try {
          await pause(FIRST_PAUSE_MS * 2 ** (failures - 1), signal);
        } catch (abort) {
          void this.#forget(status.id);
          throw abort;
        }
      }
    }
    return status;
  }

  /** Removes an upload given up on, so it holds no place among the unfinished (best effort). */
  async #forget(id: string): Promise<void> {
    await this.#api.call("DELETE", `/${id}`, {}, undefined, true).catch(() => {});
  }
}

/** The upload status in a bridge's answer (or a 409's details), checked. */
function statusOf(value: unknown): UploadStatus {
  const s = (value ?? {}) as Partial<UploadStatus>;
  if (
    typeof s.id !== "string" ||
    typeof s.name !== "string" ||
    typeof s.path !== "string" ||
    typeof s.size !== "number" ||
    typeof s.received !== "number" ||
    typeof s.complete !== "boolean"
  )
    throw badResponse("upload status");
  const { id, name, path, size, received, complete } = s;
  return { id, name, path, size, received, complete };
}

/** The status a 409 `upload_offset_mismatch` carries: where to resume. */
function mismatched(error: unknown): UploadStatus | undefined {
  if (!(error instanceof SessionHistoryError) || error.hostCode !== "upload_offset_mismatch")
    return undefined;
  try {
    return statusOf(error.details);
  } catch {
    return undefined;
  }
}

/** Whether a chunk failed on the way (the network, or the bridge's 5xx), not for what it was. */
function transient(error: unknown): boolean {
  if (!(error instanceof SessionHistoryError)) return false;
  return (
    error.code === SessionHistoryErrorCode.Network ||
    (error.status !== undefined && error.status >= 500)
  );
}

function cancelled(signal: AbortSignal): SessionHistoryError {
  return new SessionHistoryError(SessionHistoryErrorCode.Cancelled, "The upload was cancelled", {
    cause: signal.reason,
  });
}

/** Waits `ms`, or rejects with `cancelled` as soon as `signal` fires. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled(signal));
    const done = (): void => {
      signal?.removeEventListener("abort", stop);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stop = (): void => {
      clearTimeout(timer);
      reject(cancelled(signal as AbortSignal));
    };
    signal?.addEventListener("abort", stop, { once: true });
  });
}
