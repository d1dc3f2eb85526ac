/** One connection of the page to one bridge session: a WebSocket transport and its client. */
import {
  type ConnectionState,
  createWebSocketTransport,
  PiClient,
  type TransportCloseInfo,
  type WebSocketTransport,
} from "@pi-kit/client";

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

/** Connects to bridge session `name` and loads its history. */
export async function connectSession(
  name: string,
  token: string,
  listener: ConnectionListener,
): Promise<SessionConnection> {
  const transport = createWebSocketTransport({
    url: `/sessions/${encodeURIComponent(name)}/ws`,
    token,
  });
  transport.addEventListener("statechange", () => listener.state(transport.state));
  // Over a reconnecting transport, connect also loads the session's transcript (a reload, a switch).
  const client = await PiClient.connect(transport);
  void client.closed.then((info) => listener.closed(info));
  return { name, client, transport, close: () => client.close().then(() => undefined) };
}
