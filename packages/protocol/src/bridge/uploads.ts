/**
 * The upload API's bodies: files a person hands to pi that are not images (those go inline in the
 * prompt), stored under the session's workspace and named in the prompt as `@path`. An upload is
 * declared first (`POST /api/sessions/{name}/uploads`), then its bytes are sent in order, in
 * chunks, each at the offset the bridge has (`PUT …/uploads/{id}?offset=`), so a dropped
 * connection resumes where the bridge's copy ends (`GET …/uploads/{id}`).
 * @module
 */

/** Where uploads go, relative to the workspace: one directory per upload, the file named as sent. */
export const UPLOADS_DIR = ".pi-kit/uploads";

/** The limits a bridge puts on uploads (each configurable; see docs/bridge-protocol.md). */
export interface UploadLimits {
  /** The largest file, in bytes. */
  readonly maxFileBytes: number;
  /** The most files one message carries, which is also the most unfinished uploads at once. */
  readonly maxFilesPerMessage: number;
  /** The most bytes one session's uploads take in all. */
  readonly maxSessionBytes: number;
}

/** The bridge's upload limits when its options name none. */
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  maxFileBytes: 25 * 1024 * 1024,
  maxFilesPerMessage: 10,
  maxSessionBytes: 200 * 1024 * 1024,
};

/** The body of `GET /api/sessions/{name}/uploads`: the limits and what the session has used. */
export interface UploadQuota {
  readonly limits: UploadLimits;
  /** The bytes the session's uploads take now, unfinished ones at their declared size. */
  readonly usedBytes: number;
}

/** The body of `POST /api/sessions/{name}/uploads`: the file to come. */
export interface UploadRequest {
  /** The file's name as the person had it; the bridge keeps a safe version of it. */
  readonly name: string;
  /** Its size in bytes. */
  readonly size: number;
}

/** One upload, as the bridge has it. */
export interface UploadStatus {
  /** The upload's id, for its chunks and its status. */
  readonly id: string;
  /** The sanitised file name. */
  readonly name: string;
  /** Where the file is once complete, relative to the workspace (`.pi-kit/uploads/{id}/{name}`). */
  readonly path: string;
  /** The declared size in bytes. */
  readonly size: number;
  /** The bytes the bridge has, from the start: the next chunk's offset. */
  readonly received: number;
  /** True once every byte is there and the file is at `path`. */
  readonly complete: boolean;
}
