/** How a reconnecting transport spaces its attempts. Every field is optional. */
export interface ReconnectOptions {
  /** Delay before the first attempt after a drop, in ms. Defaults to 100: a blip heals at once. */
  readonly initialDelayMs?: number;
  /**
   * Upper bound on any delay, in ms. Defaults to 1500, so a bridge that comes back (a restart) is
   * reached within 1.5 s plus one handshake; an attempt to a bridge that is down costs one refused
   * TCP connection.
   */
  readonly maxDelayMs?: number;
  /** Growth per consecutive failed attempt. Defaults to 2. */
  readonly factor?: number;
  /**
   * Share of each delay that is random, 0 to 1: a delay lies in `[base * (1 - jitter), base]`.
   * Defaults to 0.5, so many clients dropped at once by a bridge restart do not return in step.
   */
  readonly jitter?: number;
  /**
   * Consecutive failed attempts before giving up (`closed` with `error`). Defaults to unlimited.
   * A socket that closes within 2 s of opening counts as failed, so a flapping bridge backs off too.
   */
  readonly maxAttempts?: number;
}

/** {@link ReconnectOptions} with every default applied. */
export type Backoff = Required<ReconnectOptions>;

/** The defaults of {@link ReconnectOptions}. */
export const DEFAULT_BACKOFF: Backoff = {
  initialDelayMs: 100,
  maxDelayMs: 1500,
  factor: 2,
  jitter: 0.5,
  maxAttempts: Number.POSITIVE_INFINITY,
};

/** Applies the defaults and checks the ranges; a bad value is a setup error, so it throws a `RangeError`. */
export function resolveBackoff(options: ReconnectOptions = {}): Backoff {
  const backoff: Backoff = { ...DEFAULT_BACKOFF, ...stripUndefined(options) };
  const { initialDelayMs, maxDelayMs, factor, jitter, maxAttempts } = backoff;
  if (!(initialDelayMs >= 0))
    throw new RangeError(`reconnect.initialDelayMs must be >= 0, got ${initialDelayMs}`);
  if (!(maxDelayMs >= initialDelayMs))
    throw new RangeError(`reconnect.maxDelayMs must be >= initialDelayMs, got ${maxDelayMs}`);
  if (!(factor >= 1)) throw new RangeError(`reconnect.factor must be >= 1, got ${factor}`);
  if (!(jitter >= 0 && jitter <= 1))
    throw new RangeError(`reconnect.jitter must be in [0, 1], got ${jitter}`);
  if (!(maxAttempts >= 0))
    throw new RangeError(`reconnect.maxAttempts must be >= 0, got ${maxAttempts}`);
  return backoff;
}

/**
 * The delay before reconnect attempt `attempt` (1 for the first after a drop):
 * `min(maxDelayMs, initialDelayMs * factor^(attempt - 1))`, minus up to `jitter` of it at random.
 * `random` returns a number in [0, 1), as `Math.random` does; tests pass their own.
 */
export function backoffDelay(
  attempt: number,
  backoff: Backoff,
  random: () => number = Math.random,
): number {
  const exponent = Math.max(0, attempt - 1);
  const base = Math.min(backoff.maxDelayMs, backoff.initialDelayMs * backoff.factor ** exponent);
  return Math.round(base * (1 - backoff.jitter * random()));
}

function stripUndefined(options: ReconnectOptions): ReconnectOptions {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(options)) if (value !== undefined) out[key] = value;
  return out;
}
