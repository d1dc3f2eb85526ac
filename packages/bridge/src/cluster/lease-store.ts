/**
 * Who owns a session across a cluster of bridges. pi appends to its session file with no lock,
 * so exactly one process may run it: a bridge holds a lease on the session's key before it starts
 * pi or touches any of the session's files, renews it while it serves, and releases it when it
 * stops. Every acquire gets a larger fence, so a frozen old owner's late writes can be told apart.
 */

/** A session's lease as the store holds it. */
export interface Lease {
  /** The holding bridge: unique per process, so a restarted bridge is a different holder. */
  readonly node: string;
  /** Where other bridges reach the holder to forward a socket or an API call. */
  readonly url: string;
  /** Grows on every acquire of the key: a larger fence is a later owner. */
  readonly fence: number;
  /** The session file the holder resumes and pi writes, when it has one (the storage fence needs it). */
  readonly file?: string;
  /** When the lease runs out unless renewed (ms since the epoch, by the reader's clock: a hint). */
  readonly expiresAt: number;
  /** When this holder acquired it (ms since the epoch, by the store's clock), if the store says. */
  readonly since?: number;
}

/** A lease held now, as {@link LeaseStore.list} answers it. */
export interface HeldLease {
  /** The session key. */
  readonly key: string;
  readonly lease: Lease;
  /** How long it lasts unless renewed, in ms. */
  readonly expiresInMs: number;
}

/** The last holder of a key, kept after its lease is gone: where the next owner resumes from. */
export interface LastHolder {
  /** The last holder's lease as it last recorded it (its `expiresAt` is stale). */
  readonly lease: Lease;
  /** Whether it released the lease; `false` means it expired (the holder died or froze). */
  readonly released: boolean;
}

/** What {@link LeaseStore.acquire} answers. */
export type AcquireResult =
  | {
      /** This bridge holds the lease now. */
      readonly acquired: true;
      /** The lease just taken. */
      readonly lease: Lease;
      /**
       * The holder before, if any. When it did not release (`released: false`) this acquire took
       * over an expired lease: its pi may still be alive and writing, so fence its file first.
       */
      readonly previous?: LastHolder;
    }
  | {
      /** Another bridge holds the lease. */
      readonly acquired: false;
      /** Who holds it (absent if it expired between the attempt and the read). */
      readonly holder?: Lease;
    };

/** What a bridge asks of its lease store. Every operation rejects when the store is unreachable. */
export interface LeaseStore {
  /** How long a lease lasts unless renewed, in ms. */
  readonly ttlMs: number;
  /** Takes `key`'s lease for `node` (reachable at `url`) if nobody holds it. */
  acquire(key: string, node: string, url: string, file?: string): Promise<AcquireResult>;
  /**
   * Extends `held` for another TTL, recording `file` when given. Answers the renewed lease, or
   * `undefined` when `held` is no longer this holder's (another fence holds it, or it expired).
   */
  renew(key: string, held: Lease, file?: string): Promise<Lease | undefined>;
  /** Gives `held` up at once so another bridge can take it; `false` if it was not held any more. */
  release(key: string, held: Lease): Promise<boolean>;
  /** Who holds `key` now, if anyone. */
  read(key: string): Promise<Lease | undefined>;
  /** Who holds each of `keys` now (keys nobody holds are absent): live state for a listing. */
  readMany(keys: readonly string[]): Promise<Map<string, Lease>>;
  /** Every lease held now (a scan: for operators, not for the hot path). */
  list(): Promise<HeldLease[]>;
  /** The last holder of `key`, released or not, if the key was ever held. */
  last(key: string): Promise<LastHolder | undefined>;
  /** Answers when the store is reachable, rejects when it is not. */
  ping(): Promise<void>;
  /** Closes the connection. Leases still held run out by themselves. */
  close(): Promise<void>;
}
