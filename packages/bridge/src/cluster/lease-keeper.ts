/**
 * Keeps this bridge's life in the lease store renewed, and fences it when it cannot. Every lease
 * the bridge takes is bound to its current life, so one renew a round keeps them all, however
 * many sessions it serves. The life's deadline is measured on this process's monotonic clock from
 * the moment the last successful renew was *sent* (Redis started the new TTL no earlier), minus a
 * margin, so it passes before Redis can let another bridge take any of its leases, whatever the
 * wall clocks say. At the deadline, or when the store says the life is over, the bridge must stop
 * every session's pi and close its sockets (`onLost` per session, then `onLifeEnded` once), and
 * starts a new life before it takes anything again: nothing of the old life carries over.
 */
import type { Lease, LeaseStore } from "./lease-store.ts";

/** Why a lease is lost: its life not renewed before its deadline, or the store says another holds it. */
export type LeaseLostReason = "expired" | "taken";

/** Options of {@link LeaseKeeper}. */
export interface LeaseKeeperOptions {
  /** This bridge's node id. */
  readonly node: string;
  /** Called once when a kept lease is lost: stop the session's pi and close its sockets now. */
  readonly onLost: (key: string, reason: LeaseLostReason) => void;
  /**
   * Called once when a life ends (after `onLost` for each of its leases): whatever this node
   * still serves under it (sessions being started, sockets relayed to other nodes) must go too.
   */
  readonly onLifeEnded?: () => void;
  /** Called when the store becomes unreachable or reachable again (for `/readyz`). */
  readonly onReachability?: (reachable: boolean) => void;
  /**
   * How often to renew, in ms (an eighth of the TTL by default: one command per node however
   * many sessions, so renewing often is cheap, and a stalled round is tried again soon).
   */
  readonly renewEveryMs?: number;
  /**
   * How long before the life would expire the bridge gives it up, in ms (a fifth of the TTL by
   * default: time to kill its pis before Redis lets the life go, on a loaded machine too; the
   * storage fence covers a pi that outlives it).
   */
  readonly marginMs?: number;
  /** The monotonic clock, in ms (`performance.now` by default). */
  readonly now?: () => number;
}

/** This bridge's life in the store, while it is confirmed. */
interface Life {
  readonly token: string;
  /** This clock's time it must be given up at, unless renewed. */
  deadline: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** Renews this bridge's life on a timer and fences every lease kept under it when it cannot. */
export class LeaseKeeper {
  readonly #store: LeaseStore;
  readonly #options: LeaseKeeperOptions;
  readonly #now: () => number;
  readonly #marginMs: number;
  readonly #kept = new Map<string, Lease>();
  readonly #interval: ReturnType<typeof setInterval>;
  #life: Life | undefined;
  /** A life being started, for callers that need one meanwhile. */
  #beginning: Promise<string> | undefined;
  #round: Promise<void> | undefined;
  /** When the last renew (or begin) the store confirmed was sent, on this clock. */
  #confirmedAt: number;
  #reachable = true;
  #closed = false;

  constructor(store: LeaseStore, options: LeaseKeeperOptions) {
    this.#store = store;
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
    this.#marginMs = options.marginMs ?? store.ttlMs / 5;
    // A node just started gets half a TTL to begin its life before it counts as unreachable.
    this.#confirmedAt = this.#now();
    this.#interval = setInterval(() => this.#tick(), options.renewEveryMs ?? store.ttlMs / 8);
  }

  /** Whether the last renew round reached the store in time. */
  get reachable(): boolean {
    return this.#reachable;
  }

  /** The leases kept now, by key (none once the life's deadline passed, even if its timer is late). */
  get leases(): ReadonlyMap<string, Lease> {
    this.#checkDeadline();
    return new Map(this.#kept);
  }

  /**
   * Whether `key`'s lease is kept and its life's deadline has not passed by this keeper's clock:
   * checked synchronously before a write to shared storage, it holds even when the deadline's
   * timer has not run yet (a process frozen past it wakes up with its I/O handled before its timers).
   */
  holds(key: string): boolean {
    this.#checkDeadline();
    return this.#kept.has(key);
  }

  /** The store says `life` is over (an acquire under it was refused): end it if it is the current one. */
  ended(life: string): void {
    if (this.#life?.token === life) this.#end("expired");
  }

  /**
   * This bridge's current life, starting one first if it has none (at the start, or after the
   * last one ended): take leases under it. Rejects when the store cannot be reached.
   */
  life(): Promise<string> {
    this.#checkDeadline();
    if (this.#life !== undefined) return Promise.resolve(this.#life.token);
    this.#beginning ??= this.#begin().finally(() => {
      this.#beginning = undefined;
    });
    return this.#beginning;
  }

  /**
   * Starts keeping `lease` on `key`, taken under {@link LeaseKeeper.life}. Answers `false`, keeping
   * nothing, when that life ended meanwhile: the lease is dead already, take it again.
   */
  keep(key: string, lease: Lease): boolean {
    this.#checkDeadline();
    if (this.#life?.token !== lease.life) return false;
    this.#kept.set(key, lease);
    return true;
  }

  /** Stops keeping `key` (before releasing it, or after giving the session up). */
  forget(key: string): void {
    this.#kept.delete(key);
  }

  /**
   * Records `file` in `key`'s lease as the session's resumable file (after a storage fence
   * renamed it, or when pi created it). Rejects if the store cannot be reached or the lease is lost.
   */
  async record(key: string, file: string): Promise<Lease> {
    const kept = this.#kept.get(key);
    if (kept === undefined) throw new Error(`No lease kept on ${key}`);
    const recorded = await this.#store.record(key, kept, file);
    if (this.#kept.get(key) !== kept) throw new Error(`The lease on ${key} is lost`);
    if (recorded === undefined) {
      this.#lose(key, "taken");
      throw new Error(`The lease on ${key} is lost`);
    }
    this.#kept.set(key, recorded);
    return recorded;
  }

  /** Stops renewing. Leases still kept die with the life in the store; `onLost` is not called. */
  close(): void {
    this.#closed = true;
    clearInterval(this.#interval);
    clearTimeout(this.#life?.timer);
    this.#life = undefined;
    this.#kept.clear();
  }

  async #begin(): Promise<string> {
    const token = randomToken();
    const sentAt = this.#now();
    await this.#store.beginLife(this.#options.node, token);
    if (this.#closed) throw new Error("The lease keeper is closed");
    // Answered too late to count on: the store may let it go any moment.
    if (this.#now() >= sentAt + this.#store.ttlMs - this.#marginMs)
      throw new Error("The lease store answered too late");
    // Another begin finished meanwhile (not possible through life(), but harmless): keep the latest.
    if (this.#life !== undefined) this.#end("expired");
    const life: Life = { token, deadline: 0, timer: undefined };
    this.#life = life;
    this.#confirmed(life, sentAt);
    this.#setReachable(true);
    return token;
  }

  #tick(): void {
    this.#checkDeadline();
    if (this.#round !== undefined) {
      // Still waiting for the store: slow or gone once half the TTL passed without a renew.
      if (this.#now() - this.#confirmedAt > this.#store.ttlMs / 2) this.#setReachable(false);
      return;
    }
    this.#round = this.#renew().finally(() => {
      this.#round = undefined;
    });
  }

  /** One round: renews the life, or starts one when there is none. */
  async #renew(): Promise<void> {
    const life = this.#life;
    if (life === undefined) {
      const started = await this.life().then(
        () => true,
        () => false,
      );
      if (!started && this.#now() - this.#confirmedAt > this.#store.ttlMs / 2)
        this.#setReachable(false);
      return;
    }
    const sentAt = this.#now();
    const answer = await this.#store.renewLife(this.#options.node, life.token).then(
      (renewed) => renewed,
      () => undefined,
    );
    if (answer === undefined) {
      if (this.#now() - this.#confirmedAt > this.#store.ttlMs / 2) this.#setReachable(false);
    } else this.#setReachable(true);
    if (this.#life !== life) return;
    if (answer === true) this.#confirmed(life, sentAt);
    // The store let the life go (this node stalled past it): every lease under it is free.
    else if (answer === false) this.#end("expired");
  }

  /** The life is good until `sentAt` + TTL − margin, unless renewed again before. */
  #confirmed(life: Life, sentAt: number): void {
    this.#confirmedAt = Math.max(this.#confirmedAt, sentAt);
    clearTimeout(life.timer);
    life.deadline = Math.max(life.deadline, sentAt + this.#store.ttlMs - this.#marginMs);
    life.timer = setTimeout(
      // One more turn of the event loop first: after a stall this timer runs before the I/O
      // that waited meanwhile, which may hold a renew's answer that moved the deadline on.
      () => {
        life.timer = setTimeout(() => this.#checkDeadline(), 0);
      },
      Math.max(0, life.deadline - this.#now()),
    );
  }

  /**
   * Ends the life now if its deadline passed: a process that wakes from a freeze may run I/O
   * callbacks before the late deadline timer, and must not serve a session it no longer holds.
   */
  #checkDeadline(): void {
    if (this.#life !== undefined && this.#now() >= this.#life.deadline) this.#end("expired");
  }

  /** Ends the current life: every lease kept under it is lost, then whatever else it served. */
  #end(reason: LeaseLostReason): void {
    if (this.#life === undefined) return;
    clearTimeout(this.#life.timer);
    this.#life = undefined;
    for (const key of [...this.#kept.keys()]) this.#lose(key, reason);
    this.#options.onLifeEnded?.();
  }

  #lose(key: string, reason: LeaseLostReason): void {
    if (!this.#kept.delete(key)) return;
    this.#options.onLost(key, reason);
  }

  #setReachable(reachable: boolean): void {
    if (reachable === this.#reachable) return;
    this.#reachable = reachable;
    this.#options.onReachability?.(reachable);
  }
}

function randomToken(): string {
  return [...crypto.getRandomValues(new Uint8Array(8))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}
