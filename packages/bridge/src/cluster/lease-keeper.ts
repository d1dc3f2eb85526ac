/**
 * Keeps this bridge's session leases renewed, and fences it when it cannot. A lease's deadline is
 * measured on this process's monotonic clock from the moment the last successful renew was *sent*
 * (Redis started the new TTL no earlier), minus a margin, so it passes before Redis can let
 * another bridge take the lease, whatever the wall clocks say. At the deadline the bridge must
 * stop that session's pi and close its sockets: `onLost` says so.
 */
import type { Lease, LeaseStore } from "./lease-store.ts";

/** Why a lease is lost: not renewed before its deadline, or the store says another holds it. */
export type LeaseLostReason = "expired" | "taken";

/** Options of {@link LeaseKeeper}. */
export interface LeaseKeeperOptions {
  /** Called once when a kept lease is lost: stop the session's pi and close its sockets now. */
  readonly onLost: (key: string, reason: LeaseLostReason) => void;
  /** Called when the store becomes unreachable or reachable again (for `/readyz`). */
  readonly onReachability?: (reachable: boolean) => void;
  /** How often to renew, in ms (a third of the TTL by default: two tries fail before the deadline). */
  readonly renewEveryMs?: number;
  /** How long before the lease would expire the bridge gives it up, in ms (a fifth of the TTL by default). */
  readonly marginMs?: number;
  /** The monotonic clock, in ms (`performance.now` by default). */
  readonly now?: () => number;
}

interface Kept {
  lease: Lease;
  timer: ReturnType<typeof setTimeout>;
  /** This keeper's clock time at which the lease must be taken as lost. */
  deadline: number;
}

/** Renews a set of leases on a timer and fences each one it cannot renew in time. */
export class LeaseKeeper {
  readonly #store: LeaseStore;
  readonly #options: LeaseKeeperOptions;
  readonly #now: () => number;
  readonly #marginMs: number;
  readonly #kept = new Map<string, Kept>();
  readonly #interval: ReturnType<typeof setInterval>;
  #round: Promise<void> | undefined;
  #reachable = true;

  constructor(store: LeaseStore, options: LeaseKeeperOptions) {
    this.#store = store;
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
    this.#marginMs = options.marginMs ?? store.ttlMs / 5;
    this.#interval = setInterval(() => this.#tick(), options.renewEveryMs ?? store.ttlMs / 3);
  }

  /** Whether the last renew round (or ping, with no leases) reached the store in time. */
  get reachable(): boolean {
    return this.#reachable;
  }

  /** The leases kept now, by key. */
  get leases(): ReadonlyMap<string, Lease> {
    return new Map([...this.#kept].map(([key, kept]) => [key, kept.lease]));
  }

  /**
   * Starts keeping `lease` on `key`. `sentAt` is this clock's time just before the acquire was
   * sent (see {@link LeaseKeeper.now}): the first deadline counts from it.
   */
  keep(key: string, lease: Lease, sentAt: number): void {
    this.forget(key);
    this.#renewed(key, lease, sentAt);
  }

  /** Stops keeping `key` (before releasing it, or after giving the session up). */
  forget(key: string): void {
    const kept = this.#kept.get(key);
    if (kept === undefined) return;
    clearTimeout(kept.timer);
    this.#kept.delete(key);
  }

  /**
   * Whether `key`'s lease is kept and its deadline has not passed by this keeper's clock: checked
   * synchronously before a write to shared storage, it holds even when the deadline's timer has
   * not run yet (a process frozen past it wakes up with its I/O handled before its timers).
   */
  holds(key: string): boolean {
    const kept = this.#kept.get(key);
    return kept !== undefined && this.#now() < kept.deadline;
  }

  /** This keeper's clock, for {@link LeaseKeeper.keep}'s `sentAt`. */
  now(): number {
    return this.#now();
  }

  /**
   * Renews `key` now, recording `file` as the session's resumable file (after a storage fence
   * renamed it, or when pi created it). Rejects if the store cannot be reached or the lease is lost.
   */
  async record(key: string, file: string): Promise<Lease> {
    const kept = this.#kept.get(key);
    if (kept === undefined) throw new Error(`No lease kept on ${key}`);
    const sentAt = this.#now();
    const renewed = await this.#store.renew(key, kept.lease, file);
    if (!this.#settle(key, kept.lease, renewed, sentAt) || renewed === undefined) {
      throw new Error(`The lease on ${key} is lost`);
    }
    return renewed;
  }

  /** Stops renewing. Leases still kept run out in the store by themselves; `onLost` is not called. */
  close(): void {
    clearInterval(this.#interval);
    for (const key of [...this.#kept.keys()]) this.forget(key);
  }

  #tick(): void {
    // A round still waiting for the store when the next is due means the store is slow or gone.
    if (this.#round !== undefined) {
      this.#setReachable(false);
      return;
    }
    this.#round = this.#renewAll().finally(() => {
      this.#round = undefined;
    });
  }

  async #renewAll(): Promise<void> {
    const sentAt = this.#now();
    const held = [...this.#kept].map(([key, kept]) => [key, kept.lease] as const);
    if (held.length === 0) {
      this.#setReachable(
        await this.#store.ping().then(
          () => true,
          () => false,
        ),
      );
      return;
    }
    const results = await Promise.all(
      held.map(([key, lease]) =>
        this.#store.renew(key, lease).then(
          (renewed) => this.#settle(key, lease, renewed, sentAt),
          () => false,
        ),
      ),
    );
    this.#setReachable(results.every((ok) => ok));
  }

  /** Applies a renew's answer; answers whether the store answered at all. */
  #settle(key: string, lease: Lease, renewed: Lease | undefined, sentAt: number): boolean {
    const kept = this.#kept.get(key);
    // Lost or given up meanwhile, or kept again under a new fence: this answer is not for it.
    if (kept === undefined || kept.lease.fence !== lease.fence) return true;
    if (renewed === undefined) {
      this.forget(key);
      this.#options.onLost(key, "taken");
    } else {
      clearTimeout(kept.timer);
      this.#renewed(key, renewed, sentAt);
    }
    return true;
  }

  #renewed(key: string, lease: Lease, sentAt: number): void {
    const deadline = sentAt + this.#store.ttlMs - this.#marginMs;
    const timer = setTimeout(
      () => {
        if (this.#kept.get(key)?.timer !== timer) return;
        this.#kept.delete(key);
        this.#options.onLost(key, "expired");
      },
      Math.max(0, deadline - this.#now()),
    );
    this.#kept.set(key, { lease, timer, deadline });
  }

  #setReachable(reachable: boolean): void {
    if (reachable === this.#reachable) return;
    this.#reachable = reachable;
    this.#options.onReachability?.(reachable);
  }
}
