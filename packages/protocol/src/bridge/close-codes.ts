/**
 * The WebSocket close codes a bridge sends, and what each means to a client: reconnect, or stop
 * for good. A bridge sends exactly these codes; a client decides from them alone whether to try
 * again. The reason of an application code (4000-4999) is a JSON object (see `close-reason.ts`).
 */

/** The WebSocket close codes a bridge sends; 4000-4499 are its own and final. */
export const BridgeCloseCode = {
  /** The bridge is shutting down (or restarting): reconnect. */
  GoingAway: 1001,
  /** A binary message was sent: final. */
  UnsupportedData: 1003,
  /** The message rate limit was exceeded: final. */
  PolicyViolation: 1008,
  /** A message exceeded the bridge's `maxRecordBytes`: final. */
  MessageTooBig: 1009,
  /** The bridge failed, for example pi could not be spawned: reconnect. */
  InternalError: 1011,
  /** The client stalled, or pi's input backed up: reconnect and resync. */
  TryAgainLater: 1013,
  /** pi exited; the reason is JSON `{reason, exitCode, signal, stderrTail}`. Final: `exit`. */
  PiExited: 4000,
  /** The session was closed through the bridge's API or reaped: final (`exit` when it gives an exit code). */
  SessionClosed: 4001,
  /**
   * Another connection replaced this one: final, so two tabs do not evict each other forever.
   * The bridge no longer sends it (several connections now share a session; see `control`).
   */
  Replaced: 4002,
  /** The request was malformed (an invalid session name): final. Its reason's `code` says what. */
  BadRequest: 4400,
  /**
   * The token was missing or wrong, or the ticket expired (also while the socket was open: the
   * bridge closes a ticket's socket at its expiry): final. Sent after the upgrade, because
   * browsers hide HTTP statuses. The reason's `code` says which (`missing_token`, `wrong_token`,
   * `ticket_expired`, ...).
   */
  Unauthorized: 4401,
  /** The page's origin is not allowed: final. */
  Forbidden: 4403,
  /** No such session, and the bridge does not create sessions on connect: final. */
  NoSuchSession: 4404,
  /** The session's files cannot be used (`session_unreadable`): final. */
  Conflict: 4409,
} as const;
/** A WebSocket close code a bridge sends. */
export type BridgeCloseCode = (typeof BridgeCloseCode)[keyof typeof BridgeCloseCode];
