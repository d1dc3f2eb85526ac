/** What went wrong with a connection, in the terms the page offers a remedy for. */
import {
  BridgeCloseCode,
  SessionHistoryError,
  type TransportCloseInfo,
  WebSocketCloseError,
} from "@pi-kit/client";

/** A connection problem the page shows, with the action that fixes it. */
export type ConnectionProblem =
  /** The bridge refused the token: the server restarted with a new one. */
  | { readonly kind: "token" }
  /** pi exited (with a code, or ended by a signal); restarting reopens the conversation. */
  | { readonly kind: "exited"; readonly exitCode: number | null; readonly signal: string | null }
  /** The session was closed on the server (deleted, stopped, reaped). */
  | { readonly kind: "closed" }
  /** Anything else, with the reason in words. */
  | { readonly kind: "failed"; readonly reason: string };

/** Classifies why a connection closed for good. */
export function problemOf(info: TransportCloseInfo): ConnectionProblem {
  if (info.reason === "exit") {
    return { kind: "exited", exitCode: info.exitCode ?? null, signal: info.signal ?? null };
  }
  if (info.reason === "eof") return { kind: "closed" };
  const error = info.error;
  if (error instanceof WebSocketCloseError) {
    const refused = error.bridgeCode === "wrong_token" || error.bridgeCode === "missing_token";
    if (
      refused ||
      (error.bridgeCode === undefined && error.code === BridgeCloseCode.Unauthorized)
    ) {
      return { kind: "token" };
    }
  }
  const reason = error instanceof Error ? error.message : info.reason;
  return { kind: "failed", reason };
}

/** Any other failure, in its own words. */
export function failedProblem(error: unknown): ConnectionProblem {
  return { kind: "failed", reason: error instanceof Error ? error.message : String(error) };
}

/** A history call's failure as a problem: a refused token, or anything else in words. */
export function historyProblem(error: unknown): ConnectionProblem {
  return error instanceof SessionHistoryError && error.code === "unauthorized"
    ? { kind: "token" }
    : failedProblem(error);
}
