import type { PiClient } from "@pi-kit/client";
import { ClientWatcher } from "./client-watcher.ts";

/** Where a client's connection to pi stands, as the status bar shows it. */
export type ConnectionStatus =
  | "connected"
  | "connecting"
  | "reconnecting"
  | "disconnected"
  | "none";

/** A transport that reports its connection (the WebSocket transport). */
interface StatefulTransport extends EventTarget {
  readonly state: { readonly status: string };
}

function isStateful(transport: unknown): transport is StatefulTransport {
  return (
    transport instanceof EventTarget &&
    typeof (transport as Partial<StatefulTransport>).state?.status === "string"
  );
}

const FROM_TRANSPORT: Readonly<Record<string, ConnectionStatus>> = {
  open: "connected",
  connecting: "connecting",
  reconnecting: "reconnecting",
  closed: "disconnected",
};

/**
 * The connection of a client: closed once its transport closed; otherwise what a reconnecting
 * transport reports, so a page that shows the transport's state and the chat agree; a transport
 * that does not reconnect (a child process, a replay) is connected until it closes.
 */
export function connectionStatus(client: PiClient | undefined): ConnectionStatus {
  if (client === undefined) return "none";
  if (client.signal.aborted) return "disconnected";
  const transport = client.transport;
  return isStateful(transport)
    ? (FROM_TRANSPORT[transport.state.status] ?? "connected")
    : "connected";
}

/** Updates its host whenever the connection status of the client it watches may have changed. */
export class ConnectionStatusController extends ClientWatcher {
  /** The status of the watched client. */
  get status(): ConnectionStatus {
    return connectionStatus(this.client);
  }

  protected subscribe(client: PiClient): () => void {
    const update = (): void => this.host.requestUpdate();
    const controller = new AbortController();
    const signal = controller.signal;
    client.signal.addEventListener("abort", update, { signal });
    const transport = client.transport;
    if (isStateful(transport)) transport.addEventListener("statechange", update, { signal });
    return () => controller.abort();
  }
}
