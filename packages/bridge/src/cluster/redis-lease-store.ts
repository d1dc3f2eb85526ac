/**
 * The lease store on one Redis primary, with node-redis (it runs on Node, Deno and Bun). Use a
 * single primary, not Sentinel or a replica failover: replication is asynchronous, so a promoted
 * replica can lose a lease it had just granted and let a second bridge start pi on the session.
 */
import { createClient } from "redis";
import { DEFAULT_LEASE_TTL_MS } from "./cluster-settings.ts";
import type { AcquireResult, HeldLease, LastHolder, Lease, LeaseStore } from "./lease-store.ts";
import { ACQUIRE, READ, RECORD, RELEASE, RENEW_LIFE } from "./redis-lease-scripts.ts";

/** The one client method the store uses, so tests and callers can hand in their own client. */
export interface RedisCommands {
  /** Sends one command and answers its reply. */
  sendCommand(args: string[]): Promise<unknown>;
  /** Closes the connection. */
  close(): Promise<unknown>;
}

/** Options of {@link RedisLeaseStore}. */
export interface RedisLeaseStoreOptions {
  /** How long a node's life (and so its leases) lasts unless renewed, in ms (2 s by default). */
  readonly ttlMs?: number;
  /** Prepended to every key, to share a Redis with other users (`pikit:` by default). */
  readonly prefix?: string;
  /** How long one command may take before it counts as a failure (half the TTL by default). */
  readonly timeoutMs?: number;
}

/** A lease store on Redis: see {@link LeaseStore} for what each operation means. */
export class RedisLeaseStore implements LeaseStore {
  readonly ttlMs: number;
  readonly #redis: RedisCommands;
  readonly #prefix: string;
  readonly #timeoutMs: number;

  constructor(redis: RedisCommands, options: RedisLeaseStoreOptions = {}) {
    this.#redis = redis;
    this.ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
    this.#prefix = options.prefix ?? "pikit:";
    this.#timeoutMs = options.timeoutMs ?? Math.ceil(this.ttlMs / 2);
  }

  async beginLife(node: string, life: string): Promise<void> {
    await this.#send(["SET", this.#key("node", node), life, "PX", String(this.ttlMs)]);
  }

  async renewLife(node: string, life: string): Promise<boolean> {
    const done = await this.#eval(
      RENEW_LIFE,
      [this.#key("node", node)],
      [life, String(this.ttlMs)],
    );
    return done === 1;
  }

  async acquire(
    key: string,
    node: string,
    life: string,
    url: string,
    file = "",
  ): Promise<AcquireResult> {
    const reply = await this.#eval(
      ACQUIRE,
      [
        this.#key("lease", key),
        this.#key("fence", key),
        this.#key("last", key),
        this.#key("node", node),
      ],
      [node, url, file, life, this.#prefix],
    );
    const [won, value, third] = reply as [number, string, string | number];
    if (won === 2) return { acquired: false, lifeOver: true };
    if (won === 0) return { acquired: false, holder: parseLease(value, third as number) };
    const previous = third as string;
    const lease = parseLease(value, this.ttlMs);
    return previous
      ? { acquired: true, lease, previous: parseLast(previous) }
      : { acquired: true, lease };
  }

  async record(key: string, held: Lease, file: string): Promise<Lease | undefined> {
    const value = await this.#eval(
      RECORD,
      [this.#key("lease", key), this.#key("last", key)],
      [held.node, String(held.fence), file, this.#prefix],
    );
    return typeof value === "string" ? parseLease(value, this.ttlMs) : undefined;
  }

  async release(key: string, held: Lease): Promise<boolean> {
    const done = await this.#eval(
      RELEASE,
      [this.#key("lease", key), this.#key("last", key)],
      [held.node, String(held.fence), this.#prefix],
    );
    return done === 1;
  }

  async read(key: string): Promise<Lease | undefined> {
    return (await this.readMany([key])).get(key);
  }

  async readMany(keys: readonly string[]): Promise<Map<string, Lease>> {
    const held = new Map<string, Lease>();
    if (keys.length === 0) return held;
    const reply = (await this.#eval(
      READ,
      keys.map((k) => this.#key("lease", k)),
      [this.#prefix],
    )) as (string | null | number)[];
    keys.forEach((key, i) => {
      const value = reply[2 * i];
      const pttl = reply[2 * i + 1] as number;
      if (typeof value === "string" && pttl > 0) held.set(key, parseLease(value, pttl));
    });
    return held;
  }

  async list(): Promise<HeldLease[]> {
    const prefix = this.#key("lease", "");
    const keys = new Set<string>();
    let cursor = "0";
    do {
      const [next, found] = (await this.#send([
        "SCAN",
        cursor,
        "MATCH",
        `${globEscaped(prefix)}*`,
        "COUNT",
        "1000",
      ])) as [string, string[]];
      cursor = next;
      for (const key of found) keys.add(key.slice(prefix.length));
    } while (cursor !== "0");
    const held: HeldLease[] = [];
    const all = [...keys].sort();
    for (let i = 0; i < all.length; i += 500) {
      const batch = all.slice(i, i + 500);
      const leases = await this.readMany(batch);
      for (const key of batch) {
        const lease = leases.get(key);
        if (lease !== undefined)
          held.push({ key, lease, expiresInMs: Math.max(0, lease.expiresAt - Date.now()) });
      }
    }
    return held;
  }

  async last(key: string): Promise<LastHolder | undefined> {
    const value = await this.#send(["GET", this.#key("last", key)]);
    return typeof value === "string" ? parseLast(value) : undefined;
  }

  async ping(): Promise<void> {
    await this.#send(["PING"]);
  }

  async close(): Promise<void> {
    await this.#redis.close();
  }

  #key(kind: "lease" | "fence" | "last" | "node", key: string): string {
    return `${this.#prefix}${kind}:${key}`;
  }

  /** Runs a script with EVAL: Redis caches it by hash, and the text is a few hundred bytes. */
  #eval(script: string, keys: string[], args: string[]): Promise<unknown> {
    return this.#send(["EVAL", script, String(keys.length), ...keys, ...args]);
  }

  /**
   * Sends a command, rejecting after the timeout. node-redis's own timeout stops only commands
   * not yet written, and a frozen server never answers one that was; its late reply is still
   * read (the connection stays in step). A late acquire takes nothing under a life that is over,
   * and a lease taken under the live one but not kept is taken again by the node's next claim; a
   * late new life or renew only keeps a life the node no longer counts on, which runs out.
   */
  async #send(args: string[]): Promise<unknown> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      const fail = () =>
        reject(new Error(`Redis did not answer ${args[0]} within ${this.#timeoutMs} ms`));
      // One more turn of the event loop first: after a stall of this process the timer runs
      // before the I/O that waited meanwhile, which may hold the answer.
      timer = setTimeout(() => {
        timer = setTimeout(fail, 0);
      }, this.#timeoutMs);
    });
    try {
      return await Promise.race([this.#redis.sendCommand(args), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Options of {@link connectRedisLeaseStore}. */
export interface ConnectOptions extends RedisLeaseStoreOptions {
  /** Called with connection errors (node-redis reconnects by itself meanwhile). */
  readonly onError?: (error: Error) => void;
  /** Called whenever the connection is up and ready, the first time and after each reconnect. */
  readonly onReady?: () => void;
}

/**
 * Connects to Redis at `url` (`redis://host:port`) and answers a lease store on it. Commands fail
 * at once while the connection is down instead of queueing: a lease command sent late could take
 * or keep a lease nobody is waiting for any more.
 */
export async function connectRedisLeaseStore(
  url: string,
  options: ConnectOptions = {},
): Promise<RedisLeaseStore> {
  const { store, connected } = openRedisLeaseStore(url, options);
  await connected;
  return store;
}

/**
 * A lease store on Redis at `url` at once, connecting in the background (a bridge is created
 * synchronously): its commands fail until `connected` resolves, and node-redis reconnects by
 * itself after that. `connected` rejects when the first connection fails.
 */
export function openRedisLeaseStore(
  url: string,
  options: ConnectOptions = {},
): { readonly store: RedisLeaseStore; readonly connected: Promise<void> } {
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 1_000) },
  });
  // node-redis throws an 'error' event with no listener: the keeper sees failures through commands.
  client.on("error", (error: Error) => options.onError?.(error));
  client.on("ready", () => options.onReady?.());
  const connected = client.connect().then(() => undefined);
  return { store: new RedisLeaseStore(client as unknown as RedisCommands, options), connected };
}

interface LeaseValue {
  node: string;
  url: string;
  fence: number;
  life?: string;
  file?: string;
  since?: number;
  released?: boolean;
}

function parseLease(value: string, ttlMs: number): Lease {
  const { node, url, fence, life, file, since } = JSON.parse(value) as LeaseValue;
  return {
    node,
    url,
    fence,
    life: life ?? "",
    expiresAt: Date.now() + ttlMs,
    ...(file === undefined ? {} : { file }),
    ...(typeof since === "number" ? { since: Math.round(since) } : {}),
  };
}

/** `text` with Redis glob characters escaped, for SCAN's MATCH. */
function globEscaped(text: string): string {
  return text.replace(/[*?[\]\\]/g, "\\$&");
}

function parseLast(value: string): LastHolder {
  const { released } = JSON.parse(value) as LeaseValue;
  return { lease: parseLease(value, 0), released: released === true };
}
