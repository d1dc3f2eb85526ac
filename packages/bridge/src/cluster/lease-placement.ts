/**
 * The cluster {@link SessionPlacement}: a lease per session in a shared {@link LeaseStore}, kept
 * renewed by a {@link LeaseKeeper}. A claim takes the lease before pi starts or a file of the
 * session changes; a lease another live node holds is a {@link SessionOwnedElsewhereError} naming
 * it (the request is forwarded there). Taking over a lease that expired instead of being released
 * puts up the storage fence first (the session file named in the lease moves to a new name), so
 * the new pi resumes a file a frozen old holder's pi can no longer write. Node-only: it moves files.
 */
import { isAbsolute, join, relative } from "node:path";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";
import { type BridgeLogger, safeLog } from "../logging/logger.ts";
import type { BridgeMetrics, LeaseAcquisition } from "../metrics/bridge-metrics.ts";
import { ClusterRefusalError, SessionOwnedElsewhereError } from "../placement/owned-elsewhere.ts";
import type { SessionPlacement } from "../placement/session-placement.ts";
import type { SessionKey } from "../principals/owner.ts";
import type { LeaseKeeper } from "./lease-keeper.ts";
import type { Lease, LeaseStore } from "./lease-store.ts";
import { fenceSessionFile, latestFencedFile, newestSessionFile } from "./storage-fence.ts";

/** Options of a {@link LeasePlacement}. */
export interface LeasePlacementOptions {
  readonly store: LeaseStore;
  /** Renews the leases taken here; its `onLost` must fence the session (see `createClusterNode`). */
  readonly keeper: LeaseKeeper;
  /** This bridge's node id: unique per process. */
  readonly node: string;
  /** This bridge's internal URL, where other nodes forward. */
  readonly url: string;
  /** The shared sessions directory: lease records name files relative to it. */
  readonly sessionsDir: string;
  readonly logger: BridgeLogger;
  readonly metrics?: BridgeMetrics;
  /** Settles once the store's first connection is up (or failed): claims wait for it a while. */
  readonly connected?: Promise<void>;
}

/** The right to run sessions by leases, one per session key. */
export class LeasePlacement implements SessionPlacement {
  readonly #options: LeasePlacementOptions;
  /** The resumable file of each session claimed here (absolute), when its lease names one. */
  readonly #files = new Map<SessionKey, string>();
  /** When a claim of each key first found it held by another node (for the failover histogram). */
  readonly #refusedSince = new Map<SessionKey, number>();
  #closed = false;

  constructor(options: LeasePlacementOptions) {
    this.#options = options;
  }

  /** Whether this bridge holds session `key`'s lease now. */
  holds(key: SessionKey): boolean {
    return this.#options.keeper.holds(key);
  }

  async claim(key: SessionKey): Promise<void> {
    if (this.#closed) throw new BridgeError(BridgeErrorCode.Closing, "The bridge is closing");
    if (this.holds(key)) return;
    const { store, keeper, node, url, logger } = this.#options;
    // A claim right after the start would otherwise fail while the store is still connecting.
    if (this.#options.connected !== undefined)
      await settledWithin(this.#options.connected, store.ttlMs / 3);
    // Twice: a holder that expires between the attempt and its read leaves the key free, and
    // this node's life may end under the attempt (it starts a new one).
    for (let attempt = 0; attempt < 2; attempt++) {
      const unreachable = (cause: unknown): never => {
        throw new ClusterRefusalError(
          "lease_store_unreachable",
          "The lease store did not answer; retry",
          { cause },
        );
      };
      const life = await keeper.life().catch(unreachable);
      const result = await store.acquire(key, node, life, url).catch(unreachable);
      if (!result.acquired) {
        if (result.lifeOver) {
          keeper.ended(life);
          continue;
        }
        const holder = result.holder;
        if (holder === undefined) continue;
        this.#noteRefusal(key);
        throw new SessionOwnedElsewhereError(key, holder.node, holder.url, holder.expiresAt);
      }
      // Its life ended under the acquire: the lease died with it; take it again under the next.
      if (!keeper.keep(key, result.lease)) continue;
      const how: LeaseAcquisition =
        result.previous === undefined ? "free" : result.previous.released ? "released" : "takeover";
      let file = this.#absolute(result.lease.file);
      if (how === "takeover") {
        // A holder that died before it learned pi's file left none in the lease: fence the file
        // pi resumes anyway (the one written last), so a frozen old pi cannot write into it.
        file ??= await newestSessionFile(join(this.#options.sessionsDir, key)).catch(
          () => undefined,
        );
      }
      if (how === "takeover" && file !== undefined) {
        try {
          file = await this.#fence(key, file, result.lease);
        } catch (error) {
          // Not released: the lease runs out and the next claim fences again.
          keeper.forget(key);
          throw error;
        }
      }
      if (file === undefined) this.#files.delete(key);
      else this.#files.set(key, file);
      // This node taking back what it just released (to settle a stopped session's files) is no news.
      const own = how === "released" && result.previous?.lease.node === node;
      if (own) return;
      this.#options.metrics?.leasesAcquired.inc({ how });
      const refusedSince = this.#refusedSince.get(key);
      this.#refusedSince.delete(key);
      if (refusedSince !== undefined && how !== "free") {
        const seconds = (performance.now() - refusedSince) / 1000;
        this.#options.metrics?.failoverSeconds.observe({ how }, seconds);
      }
      safeLog(logger, {
        event: how === "takeover" ? "lease_taken_over" : "lease_acquired",
        session: key,
        fence: result.lease.fence,
        ...(result.previous === undefined ? {} : { from: result.previous.lease.node }),
        ...(file === undefined ? {} : { file: this.#relative(file) }),
      });
      return;
    }
    throw new ClusterRefusalError("owned_elsewhere", `Session ${key} changes hands; retry`);
  }

  /** The file session `key`'s pi resumes, as its lease names it (after a takeover: the fenced one). */
  resumableFile(key: SessionKey): string | undefined {
    return this.#files.get(key);
  }

  /** Records `file` (absolute) in session `key`'s lease as the file its pi writes. Best effort. */
  async recordFile(key: SessionKey, file: string): Promise<void> {
    if (!this.holds(key) || this.#files.get(key) === file) return;
    this.#files.set(key, file);
    try {
      await this.#options.keeper.record(key, this.#relative(file));
    } catch {
      // The lease is lost (the keeper fences the session) or the store is away (a later start records it).
    }
  }

  async release(key: SessionKey): Promise<void> {
    const lease = this.#options.keeper.leases.get(key);
    this.#files.delete(key);
    if (lease === undefined) return;
    this.#options.keeper.forget(key);
    try {
      await this.#options.store.release(key, lease);
      safeLog(this.#options.logger, { event: "lease_released", session: key });
    } catch (error) {
      // Unreachable store: the lease runs out by itself, and the next holder fences the file.
      safeLog(this.#options.logger, {
        event: "lease_release_failed",
        session: key,
        error: String(error),
      });
    }
  }

  /**
   * Notes when claims of `key` began to find it held elsewhere. A note older than a minute is
   * from an earlier episode (the session stayed forwarded): it starts again; the map is bounded.
   */
  #noteRefusal(key: SessionKey): void {
    const since = this.#refusedSince.get(key);
    const now = performance.now();
    if (since !== undefined && now - since < 60_000) return;
    if (this.#refusedSince.size >= 10_000) this.#refusedSince.clear();
    this.#refusedSince.set(key, now);
  }

  /** Forgets session `key`'s lease without releasing it: it was lost (the session is fenced). */
  lost(key: SessionKey): void {
    this.#files.delete(key);
    this.#options.keeper.forget(key);
  }

  /** Releases every lease held here at once, then stops renewing. */
  async close(): Promise<void> {
    this.#closed = true;
    const keys = [...this.#options.keeper.leases.keys()] as SessionKey[];
    await Promise.all(keys.map((key) => this.release(key)));
    this.#options.keeper.close();
  }

  /**
   * Moves the session file an expired lease named out of a frozen holder's reach, records the
   * new name in the lease, and answers it; the latest fenced file when the named one is gone (an
   * earlier takeover moved it and died before recording).
   */
  async #fence(key: SessionKey, file: string, lease: Lease): Promise<string | undefined> {
    let fenced: string | undefined;
    try {
      fenced = await fenceSessionFile(file, lease.fence);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      fenced = await latestFencedFile(file).catch(() => undefined);
    }
    if (fenced !== undefined) await this.#options.keeper.record(key, this.#relative(fenced));
    return fenced;
  }

  #absolute(file: string | undefined): string | undefined {
    if (file === undefined || file === "") return undefined;
    return isAbsolute(file) ? file : join(this.#options.sessionsDir, file);
  }

  /** Lease records name files relative to the shared directory, so nodes may mount it anywhere. */
  #relative(file: string): string {
    return relative(this.#options.sessionsDir, file);
  }
}

/** Resolves once `promise` settles or `ms` pass, whichever is first. */
function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([promise.then(noop, noop), timeout]).finally(() => clearTimeout(timer));
}

function noop(): void {}
