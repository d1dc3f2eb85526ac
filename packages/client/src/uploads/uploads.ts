/**
 * The seam between a composer's attachments and where non-image files are stored for pi: a
 * bridge's upload API ({@link BridgeUploads}), or a fake in tests.
 * @module
 */
import type { UploadQuota, UploadStatus } from "@pi-kit/protocol/bridge";

/** A file to upload: a `File` is one. */
export interface UploadSource extends Blob {
  /** The name the person had for it. */
  readonly name: string;
}

/** Options of one upload. */
export interface UploadOptions {
  /** Cancels the upload (it rejects with code `cancelled`). */
  readonly signal?: AbortSignal;
  /** Called as bytes reach the bridge: how many of `size` it has. */
  readonly onProgress?: (received: number, size: number) => void;
}

/**
 * Stores files in a session's workspace; rejects with a `SessionHistoryError` (the history API's
 * error), whose `hostCode` says which limit was hit (`upload_too_large`, `too_many_uploads`, …).
 */
export interface Uploads {
  /** The limits and what the session has used. */
  quota(options?: { readonly signal?: AbortSignal }): Promise<UploadQuota>;
  /**
   * Uploads `file`; resolves its complete status, whose `path` a prompt names as `@path`. A
   * dropped connection is resumed where the bridge's copy ends, a few times, before it rejects.
   */
  upload(file: UploadSource, options?: UploadOptions): Promise<UploadStatus>;
}
