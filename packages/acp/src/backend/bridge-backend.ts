/**
 * Sessions on a pi-kit bridge: created, listed and looked up over its history API
 * ({@link BridgeSessionHistory}), driven over the client's reconnecting WebSocket transport,
 * attached as one more viewer next to any `<pi-chat>` on the same session.
 */
import { BridgeSessionHistory, type BridgeToken, PiClient } from "@pi-kit/client";
import { createNodeWebSocketTransport } from "@pi-kit/client/ws-node";
import type { OpenedSession, SessionBackend, StoredSessionPage } from "./session-backend.ts";

/** Options of {@link bridgeBackend}. */
export interface BridgeBackendOptions {
  /** The bridge's base URL, e.g. `https://pi.example.com` (or where an app mounts it). */
  readonly url: string;
  /** The bridge token or a per-user ticket, or a function returning a fresh one per connection. */
  readonly token?: BridgeToken;
  /** How the session's other viewers see this editor; `"Editor (ACP)"` by default. */
  readonly label?: string;
  /** Milliseconds pi has to answer the handshake; 60 000 by default. */
  readonly handshakeTimeoutMs?: number;
}

/** A {@link SessionBackend} on the bridge at `options.url`. */
export function bridgeBackend(options: BridgeBackendOptions): SessionBackend {
  const base = options.url.replace(/\/+$/, "");
  const history = new BridgeSessionHistory({
    baseUrl: base,
    ...(options.token === undefined ? {} : { token: options.token }),
  });
  const attach = async (name: string, title: string | undefined): Promise<OpenedSession> => {
    const transport = await createNodeWebSocketTransport({
      url: `${base.replace(/^http/, "ws")}/sessions/${encodeURIComponent(name)}/ws`,
      ...(options.token === undefined ? {} : { token: options.token }),
      label: options.label ?? "Editor (ACP)",
    });
    try {
      const client = await PiClient.connect(transport, {
        handshakeTimeoutMs: options.handshakeTimeoutMs ?? 60_000,
      });
      return { id: name, client, shared: transport, title };
    } catch (error) {
      await transport.close();
      throw error;
    }
  };
  return {
    stores: true,
    async create(_cwd, signal) {
      const summary = await history.create(undefined, signal === undefined ? {} : { signal });
      return attach(summary.name, undefined);
    },
    async open(id, signal) {
      const summary = await history.get(id, signal === undefined ? {} : { signal });
      return summary === undefined ? undefined : attach(summary.name, summary.title || undefined);
    },
    async list(cursor, signal): Promise<StoredSessionPage> {
      const page = await history.list({
        ...(cursor === undefined ? {} : { cursor }),
        ...(signal === undefined ? {} : { signal }),
      });
      return {
        sessions: page.sessions.map((s) => ({
          id: s.name,
          title: s.title === "" ? undefined : s.title,
          updatedAt: s.lastActivity,
        })),
        nextCursor: page.nextCursor,
      };
    },
  };
}
