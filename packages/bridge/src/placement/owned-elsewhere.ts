/**
 * Why a cluster bridge cannot run a session right now: another live node holds its lease (the
 * request goes to that node instead), or the lease store cannot be asked. Both are 503s a client
 * retries; neither ever means a second pi.
 */

/** The codes of {@link ClusterRefusalError}: what a refused request's body and close reason say. */
export type ClusterRefusalCode = "owned_elsewhere" | "lease_store_unreachable";

/** A session this bridge may not run now; retry (the HTTP status is always 503, close 1013). */
export class ClusterRefusalError extends Error {
  /** Why: another node owns the session, or the lease store did not answer. */
  readonly code: ClusterRefusalCode;
  /** Always 503: the session is served elsewhere or later, never refused for good. */
  readonly status = 503 as const;

  constructor(code: ClusterRefusalCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ClusterRefusalError";
    this.code = code;
  }
}

/** Another live bridge holds the session's lease: forward the request to `ownerUrl`. */
export class SessionOwnedElsewhereError extends ClusterRefusalError {
  /** The holder's node id. */
  readonly ownerNode: string;
  /** The holder's internal base URL, where the request is forwarded. */
  readonly ownerUrl: string;
  /**
   * When the holder's lease runs out unless renewed (ms since the epoch, by this node's clock):
   * a forward that gets no answer from the holder by then takes the session over instead.
   */
  readonly leaseExpiresAt: number | undefined;

  constructor(key: string, ownerNode: string, ownerUrl: string, leaseExpiresAt?: number) {
    super("owned_elsewhere", `Session ${key} runs on node ${ownerNode}`);
    this.name = "SessionOwnedElsewhereError";
    this.ownerNode = ownerNode;
    this.ownerUrl = ownerUrl;
    this.leaseExpiresAt = leaseExpiresAt;
  }
}
