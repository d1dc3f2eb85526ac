/** One connection of the page to one bridge session: a WebSocket transport and its client. */
import {
  type ConnectionState,
  createWebSocketTransport,
  PiClient,
  PiClientError,
  type TransportCloseInfo,
  type WebSocketTransport,
} from "@pi-kit/client";
import { tabLabel, tabViewerKey } from "./viewer-label.ts";

/** A connected session, plus how to follow it. */
export interface SessionConnection {
  readonly name: string;
  readonly client: PiClient;
  readonly transport: WebSocketTransport;
  close(): Promise<void>;
}

/** What the page hears about a connection. */
export interface ConnectionListener {
  state(state: ConnectionState): void;
  closed(info: TransportCloseInfo): void;
}

/** Why connecting failed, as the transport closed (a refused token, pi failing to start, …). */
export class ConnectFailure extends Error {
  readonly info: TransportCloseInfo;

  constructor(info: TransportCloseInfo, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "ConnectFailure";
    this.info = info;
  }
}

/** Connects to bridge session `name` and loads its transcript; throws a {@link ConnectFailure}. */
export async function connectSession(
  name: string,
  token: string,
  listener: ConnectionListener,
): Promise<SessionConnection> {
  const transport = createWebSocketTransport({
    url: `/sessions/${encodeURIComponent(name)}/ws`,
    token,
    label: await tabLabel(),
    viewerKey: tabViewerKey(),
    // Each attempt on a server that is down is an error in the browser's console: after the
    // first seconds, one every 5 s (the banner's "Retry now" skips the wait).
    reconnect: { maxDelayMs: 5000 },
  });
  transport.addEventListener("statechange", () => listener.state(transport.state));
  let client: PiClient;
  try {
    // Over a reconnecting transport, connect also loads the session's transcript.
    client = await PiClient.connect(transport);
  } catch (error) {
    const state = transport.state;
    await transport.close();
    // The error's own close info names the bridge's refusal (or that it is unreachable).
    const info =
      error instanceof PiClientError && error.closeInfo !== undefined
        ? error.closeInfo
        : state.status === "closed"
          ? state.closeInfo
          : { reason: "error" as const, error };
    throw new ConnectFailure(info, error);
  }
  void client.closed.then((info) => listener.closed(info));
  return { name, client, transport, close: () => client.close().then(() => undefined) };
}
