/**
 * The first connection of a reconnecting transport (the WebSocket one), as `PiClient.connect`
 * sees it: when its first attempt fails before any socket opened (the bridge is down, or refused
 * for now with 1013 `too_many_sessions` / `closing`), connect fails at once with a typed error
 * instead of waiting out the handshake's timeout while the transport retries.
 */
import { parseCloseReason } from "@pi-kit/protocol/bridge";
import type { Transport } from "../transports/transport.ts";
import {
  type ConnectionState,
  WebSocketCloseError,
} from "../transports/websocket/connection-state.ts";
import { PiClientError, PiClientErrorCode } from "./errors.ts";

/** A transport that reports its connection state (see `ConnectionState`). */
interface StatefulTransport extends EventTarget {
  readonly state: ConnectionState;
}

function isStateful(transport: Transport): transport is Transport & StatefulTransport {
  const state = (transport as Partial<StatefulTransport>).state;
  return transport instanceof EventTarget && typeof state?.status === "string";
}

/**
 * Aborts the returned signal with a `bridge_unreachable` {@link PiClientError} when `transport`
 * reports `reconnecting` before `stop()` (called once pi answered the handshake). A transport without
 * a state gives a signal that never aborts.
 */
export function watchFirstConnection(transport: Transport): {
  readonly signal: AbortSignal;
  stop(): void;
} {
  const controller = new AbortController();
  if (!isStateful(transport)) return { signal: controller.signal, stop: () => {} };
  const watch = new AbortController();
  const check = (): void => {
    const state = transport.state;
    // Not done at "open": the bridge refuses a pi-kit client after the upgrade (1013, too many
    // sessions), so the first socket may open and close at once. Connect stops the watch.
    if (state.status === "closed") watch.abort();
    else if (state.status === "reconnecting") {
      watch.abort();
      controller.abort(unreachable(state.lastClose));
    }
  };
  transport.addEventListener("statechange", check, { signal: watch.signal });
  check();
  return { signal: controller.signal, stop: () => watch.abort() };
}

function unreachable(close: { readonly code: number; readonly reason: string }): PiClientError {
  // A 1006 whose reason the transport wrote as JSON is an HTTP answer: something did answer.
  const answered = close.code === 1006 && parseCloseReason(close.reason).reason !== undefined;
  const error = new WebSocketCloseError(
    close.code !== 1006
      ? `the bridge refused the connection for now (code ${close.code})`
      : answered
        ? "the bridge refused the connection for now"
        : `the bridge is unreachable (${close.reason || "no connection"})`,
    close,
  );
  const code = error.bridgeCode === undefined ? "" : ` (${error.bridgeCode})`;
  const why =
    error.detail === undefined ? error.message : `${error.message}: ${error.detail}${code}`;
  return new PiClientError(PiClientErrorCode.BridgeUnreachable, `connect failed: ${why}`, {
    command: "connect",
    closeInfo: { reason: "error", error },
    cause: error,
  });
}
