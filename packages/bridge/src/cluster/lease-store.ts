/**
 * Who owns a session across a cluster of bridges. pi appends to its session file with no lock,
 * so exactly one process may run it: a bridge holds a lease on the session's key before it starts
 * pi or touches any of the session's files, and releases it when it stops. A lease is bound to
 * its node's current life: the node renews one liveness record for all its leases (not one per
 * session), and when that life ends (the node died, froze, or lost the store) every lease bound
 * to it is free at once. Every acquire gets a larger fence, so a frozen old owner's late writes
 * can be told apart.
 */

/** A session's lease as the store holds it. */
export interface Lease {
  /** The holding bridge: unique per process, so a restarted bridge is a different holder. */
  readonly node: string;
  /** Where other bridges reach the holder to forward a socket or an API call. */
  readonly url: string;
  /** Grows on every acquire of the key: a larger fence is a later owner. */
  readonly fence: number;
  /** The holder's life the lease is bound to: held while the holder still lives it. */
  readonly life: string;
  /** The session file the holder resumes and pi writes, when it has one (the storage fence needs it). */
  readonly file?: string;
  /** When the holder's life runs out unless renewed (ms since the epoch, by the reader's clock: a hint). */
  readonly expiresAt: number;
  /** When this holder acquired it (ms since the epoch, by the store's clock), if the store says. */
  readonly since?: number;
}

/** A lease held now, as {@link LeaseStore.list} answers it. */
export interface HeldLease {
  /** The session key. */
  readonly key: string;
  readonly lease: Lease;
  /** How long it lasts unless its holder's life is renewed, in ms. */
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
      /** Another bridge holds the lease, or this node's life is over. */
      readonly acquired: false;
      /** Who holds it (absent if it expired between the attempt and the read). */
      readonly holder?: Lease;
      /** This node's life is over: nothing may be taken under it (start a new one). */
      readonly lifeOver?: true;
    };

/** What a bridge asks of its lease store. Every operation rejects when the store is unreachable. */
export interface LeaseStore {
  /** How long a node's life lasts unless renewed, in ms (its leases' TTL). */
  readonly ttlMs: number;
  /** Starts `life` for `node`, ending any earlier life of it: leases bound to that one are free. */
  beginLife(node: string, life: string): Promise<void>;
  /** Extends `node`'s `life` for another TTL; `false` when that life is over (it ran out or was replaced). */
  renewLife(node: string, life: string): Promise<boolean>;
  /**
   * Takes `key`'s lease for `node` (reachable at `url`) under its `life`, if nobody alive holds
   * it (or only this very life does, no longer keeping it: a release that failed).
   */
  acquire(
    key: string,
    node: string,
    life: string,
    url: string,
    file?: string,
  ): Promise<AcquireResult>;
  /**
   * Records `file` in `held` (the session's resumable file). Answers the lease, or `undefined`
   * when `held` is no longer this holder's (another fence holds it, or its life is over).
   */
  record(key: string, held: Lease, file: string): Promise<Lease | undefined>;
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
  /** Closes the connection. Leases still held die with the node's life. */
  close(): Promise<void>;
}
