/**
 * The cluster's options, and the settings checked before anything starts: a malformed Redis URL, node URL or lease
 * setting is one line naming the option and what it expects, from the CLI and `createBridge`
 * alike, never the Redis client's own message from deep inside its URL parser. URLs in messages
 * and logs never show a password.
 */

/** Cluster mode: bridges sharing one sessions directory, each session owned by a lease in Redis. */
export interface ClusterOptions {
  /** The Redis primary holding the leases, e.g. `redis://10.0.0.5:6379`. */
  readonly redisUrl: string;
  /** This node's internal URL other nodes forward to. Default: the URL it listens on (`url`). */
  readonly nodeUrl?: string;
  /** How long a node's leases outlive its last renew, in ms. Default 2000 (one renew per node every eighth). */
  readonly leaseTtlMs?: number;
  /** How long a drain (SIGTERM) lets running turns settle before it stops pi, in ms. Default 30000. */
  readonly drainTimeoutMs?: number;
  /**
   * Where this node keeps its history index cache. Default: a directory per node outside the
   * shared sessions directory, so nodes never overwrite each other's index.
   */
  readonly indexDir?: string;
}

/** The shape of a Redis URL the bridge accepts, for messages. */
export const REDIS_URL_FORM = "redis://[user:password@]host[:port][/db] (rediss:// for TLS)";
/** The shortest lease TTL: under it a renew round trip on a busy node would eat the whole lease. */
export const MIN_LEASE_TTL_MS = 300;
/**
 * The lease TTL when none is given: how long a node's life outlasts its last renew. A killed
 * node's sessions wait for it; the node renews it every eighth of it (one command per node).
 */
export const DEFAULT_LEASE_TTL_MS = 2_000;

/** What `text` should have been as a Redis URL, or `undefined` when it is one. */
export function redisUrlProblem(text: string): string | undefined {
  const expected = `a Redis URL, ${REDIS_URL_FORM}`;
  const parsed = parse(text);
  if (parsed === undefined || (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:"))
    return expected;
  // `redis:/host:6379` (one slash) parses with an empty host and the address as its path.
  if (!text.slice(parsed.protocol.length).startsWith("//") || parsed.hostname === "")
    return `${expected}: no host in it`;
  if (!/^\/?(\d+)?$/.test(parsed.pathname)) return `${expected}: the path may only be a db number`;
  if (parsed.search !== "" || parsed.hash !== "") return `${expected}, with no ?query or #fragment`;
  return undefined;
}

/** What `text` should have been as a node's internal URL, or `undefined` when it is one. */
export function nodeUrlProblem(text: string): string | undefined {
  const expected = "an http:// or https:// URL with a host, e.g. http://10.0.0.11:8787";
  const parsed = parse(text);
  if (parsed === undefined || (parsed.protocol !== "http:" && parsed.protocol !== "https:"))
    return expected;
  // Forwards keep the request's own path: a base path here would silently be dropped.
  if (parsed.pathname !== "/" || parsed.search !== "" || parsed.hash !== "")
    return `${expected}, and no path, query or fragment`;
  return undefined;
}

/** What a lease TTL of `ms` should have been, or `undefined` when it is usable. */
export function leaseTtlProblem(ms: number): string | undefined {
  if (!Number.isInteger(ms) || ms < MIN_LEASE_TTL_MS)
    return `a whole number of ms, at least ${MIN_LEASE_TTL_MS}`;
  return undefined;
}

/** `text` with any password replaced by `***`, for messages and logs (a malformed URL too). */
export function redactedUrl(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/*[^:@/]*:)[^@]*@/i, "$1***@");
}

/** The cluster options `createBridge` checks (the names are the option paths in messages). */
export interface CheckedClusterSettings {
  readonly redisUrl: string;
  readonly nodeUrl?: string | undefined;
  readonly leaseTtlMs?: number | undefined;
  readonly drainTimeoutMs?: number | undefined;
}

/** The first problem of `settings` as one line naming the option, or `undefined`. */
export function clusterSettingsProblem(settings: CheckedClusterSettings): string | undefined {
  const { redisUrl, nodeUrl, leaseTtlMs, drainTimeoutMs } = settings;
  const named = (option: string, problem: string | undefined, got: unknown) =>
    problem === undefined ? undefined : `${option} needs ${problem}, got ${shown(got)}`;
  return (
    named(
      "cluster.redisUrl",
      typeof redisUrl === "string" ? redisUrlProblem(redisUrl) : "a string",
      typeof redisUrl === "string" ? redactedUrl(redisUrl) : redisUrl,
    ) ??
    (nodeUrl === undefined
      ? undefined
      : named("cluster.nodeUrl", nodeUrlProblem(String(nodeUrl)), nodeUrl)) ??
    (leaseTtlMs === undefined
      ? undefined
      : named("cluster.leaseTtlMs", leaseTtlProblem(leaseTtlMs), leaseTtlMs)) ??
    (drainTimeoutMs === undefined || (Number.isInteger(drainTimeoutMs) && drainTimeoutMs >= 0)
      ? undefined
      : named("cluster.drainTimeoutMs", "a whole number of ms, 0 or more", drainTimeoutMs))
  );
}

/**
 * The limits cluster mode changes: the keepalive at most a third of the lease TTL, so that a
 * client of a frozen node gives up on it (two missed pings) about when its lease runs out.
 */
export function clusterLimits(
  settings: { readonly leaseTtlMs?: number | undefined } | undefined,
  keepaliveMs: number,
): { keepaliveMs?: number } {
  if (settings === undefined) return {};
  const ttlMs = settings.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
  return { keepaliveMs: Math.min(keepaliveMs, Math.floor(ttlMs / 3)) };
}

function parse(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** A value for a message, quoted and cut short. */
export function shown(value: unknown): string {
  const text = typeof value === "string" ? value : String(value);
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}
