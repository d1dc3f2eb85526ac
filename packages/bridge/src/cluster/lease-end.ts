/**
 * The moment another node's lease on a session runs out. A request for a session whose owner
 * does not answer (frozen, or dead with its lease still running) waits for this instead of a
 * fixed timeout, and then takes the session over here: the session answers again as soon as the
 * lease allows, not a timeout and a client's retry later.
 */

/** The longest a forward waits for a lease: a holder's lease never lasts longer than its TTL. */
const MAX_WAIT_MS = 120_000;

/** A wait for a lease's end; cancel it when the wait no longer matters. */
export interface LeaseEnd {
  /** Resolves just after the lease runs out (unless it was renewed meanwhile: the claim then says so). */
  readonly ended: Promise<void>;
  /** How long until then, in ms, from when the wait began. */
  readonly inMs: number;
  /** Stops the timer (`ended` then never resolves). */
  cancel(): void;
}

/**
 * Waits until `expiresAt` (ms since the epoch, by this node's clock, as read from the store) and
 * a little after, so that Redis has let the key go when this node claims it.
 */
export function leaseEnd(expiresAt: number, now: () => number = Date.now): LeaseEnd {
  const inMs = Math.min(MAX_WAIT_MS, Math.max(0, expiresAt - now()) + 20);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ended = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, inMs);
  });
  return { ended, inMs, cancel: () => clearTimeout(timer) };
}
