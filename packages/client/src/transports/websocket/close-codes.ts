/**
 * What each of the bridge's WebSocket close codes means to the transport: reconnect, or stop for
 * good (the table itself is the bridge protocol's, in `@pi-kit/protocol/bridge`).
 */
import { BridgeCloseCode, parseCloseReason } from "@pi-kit/protocol/bridge";
import type { TransportCloseInfo } from "../transport.ts";
import { type SocketClose, WebSocketCloseError } from "./connection-state.ts";

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
  const fields = parseCloseReason(close.reason);
  if (!exited && fields.exitCode === undefined) return { reason: "eof" };
  const info: TransportCloseInfo = {
    reason: "exit",
    exitCode: fields.exitCode ?? null,
    signal: fields.signal ?? null,
  };
  return fields.stderrTail === undefined ? info : { ...info, stderrTail: fields.stderrTail };
}

function describe(close: SocketClose): string {
  const known = Object.entries(BridgeCloseCode).find(([, value]) => value === close.code)?.[0];
  const what = known === undefined ? `code ${close.code}` : `${known} (${close.code})`;
  const { reason: detail, code } = parseCloseReason(close.reason);
  const why =
    detail === undefined
      ? close.reason
        ? `: ${close.reason}`
        : ""
      : `: ${detail}${code === undefined ? "" : ` (${code})`}`;
  return `the bridge closed the connection: ${what}${why}`;
}
