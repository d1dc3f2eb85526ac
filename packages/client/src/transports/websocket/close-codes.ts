/**
 * What each WebSocket close code means to the client: reconnect, or stop for good. The bridge
 * (`@pi-kit/bridge`) sends exactly these codes: it imports this table.
 */
import type { TransportCloseInfo } from "../transport.ts";
import { type SocketClose, WebSocketCloseError } from "./connection-state.ts";

/** Close codes the bridge sends, as the client reads them. */
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
  /** The token was missing or wrong: final. Sent after the upgrade, because browsers hide HTTP statuses. */
  Unauthorized: 4401,
  /** The page's origin is not allowed: final. */
  Forbidden: 4403,
  /** No such session, and the bridge does not create sessions on connect: final. */
  NoSuchSession: 4404,
} as const;
/** Close codes the bridge sends, as the client reads them. */
export type BridgeCloseCode = (typeof BridgeCloseCode)[keyof typeof BridgeCloseCode];

// Standard codes after which trying again cannot help: the peer ended the session on purpose
// (1000), or rejected what we send (protocol error, bad data, policy, too big, missing extension).
const FINAL_STANDARD = new Set([1000, 1002, 1003, 1007, 1008, 1009, 1010]);

/**
 * Decides what a socket's close means: `undefined` to reconnect (network loss 1006, bridge going
 * away 1001, internal error 1011, restart 1012, try again later 1013, unknown `45xx`-`49xx`), or the
 * final {@link TransportCloseInfo}. Codes 4000-4499 are the bridge's and final.
 */
export function finalCloseInfo(close: SocketClose): TransportCloseInfo | undefined {
  const { code } = close;
  if (code === BridgeCloseCode.PiExited) return exitInfo(close, true);
  if (code === BridgeCloseCode.SessionClosed) return exitInfo(close, false);
  if (code === 1000) return { reason: "eof" };
  if (FINAL_STANDARD.has(code) || (code >= 4000 && code < 4500)) {
    return { reason: "error", error: new WebSocketCloseError(describe(close), close) };
  }
  return undefined;
}

/** Reads `{exitCode, signal, stderrTail}` from a JSON close reason; tolerant of anything else. */
function exitInfo(close: SocketClose, exited: boolean): TransportCloseInfo {
  let parsed: unknown;
  try {
    parsed = JSON.parse(close.reason);
  } catch {
    parsed = undefined;
  }
  const fields =
    typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  if (!exited && !("exitCode" in fields)) return { reason: "eof" };
  const exitCode = typeof fields.exitCode === "number" ? fields.exitCode : null;
  const signal = typeof fields.signal === "string" ? fields.signal : null;
  const info: TransportCloseInfo = { reason: "exit", exitCode, signal };
  return typeof fields.stderrTail === "string" ? { ...info, stderrTail: fields.stderrTail } : info;
}

function describe(close: SocketClose): string {
  const known = Object.entries(BridgeCloseCode).find(([, value]) => value === close.code)?.[0];
  const what = known === undefined ? `code ${close.code}` : `${known} (${close.code})`;
  return `the bridge closed the connection: ${what}${close.reason ? `: ${close.reason}` : ""}`;
}
