/**
 * When a connection opened with a short-lived ticket must be renewed: the bridge closes a
 * ticket's socket at its `exp` (plus its clock allowance, 4401 `ticket_expired`), so a transport
 * whose token is a function reconnects with a fresh ticket a little before. The ticket's `exp`
 * is read without verifying it: only the bridge can, and only the timing depends on it.
 */

/** The most a renewal comes before the ticket's expiry, in ms. */
const MAX_LEAD_MS = 60_000;
/** The share of the ticket's remaining life kept as the lead (a 2 s ticket renews after 1.5 s). */
const LEAD_SHARE = 0.25;

/** The `exp` of a JWT, in ms since the epoch; `undefined` for a token that is no JWT or has none. */
export function ticketExpiry(token: string): number | undefined {
  const payload = token.split(".")[1];
  if (payload === undefined || token.split(".").length !== 3) return undefined;
  try {
    const base64 = payload.replaceAll("-", "+").replaceAll("_", "/");
    const json = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), "="));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === "number" && Number.isFinite(exp) ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How long after `now` to renew a ticket that expires at `expiresAt` (both ms since the epoch):
 * a quarter of its remaining life before the expiry, at most a minute before; 0 when it is due.
 * Measured from when the ticket arrived, not its `iat`, so a clock that disagrees with the
 * issuer's cannot make every renewal immediate.
 */
export function renewalDelay(expiresAt: number, now: number): number {
  const left = expiresAt - now;
  if (left <= 0) return 0;
  return Math.round(left - Math.min(MAX_LEAD_MS, left * LEAD_SHARE));
}
