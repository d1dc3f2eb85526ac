/**
 * Where the agent's pi sessions live: a pi-kit bridge (hosted, listed, shared with other clients)
 * or pi processes this agent starts itself. The agent depends only on this interface.
 */
import type { PiClient, WebSocketTransport } from "@pi-kit/client";

/** One pi session the agent drives. */
export interface OpenedSession {
  /** The ACP session id: the bridge session's name, or the local pi's session id. */
  readonly id: string;
  /** The client connected to it. */
  readonly client: PiClient;
  /** The bridge connection, whose control passes between the clients sharing the session; none for a local pi. */
  readonly shared: WebSocketTransport | undefined;
  /** The session's title, when it has one. */
  readonly title: string | undefined;
}

/** One stored session as `session/list` shows it. */
export interface StoredSession {
  readonly id: string;
  readonly title: string | undefined;
  /** ISO 8601. */
  readonly updatedAt: string | undefined;
}

/** A page of stored sessions, newest first. */
export interface StoredSessionPage {
  readonly sessions: readonly StoredSession[];
  readonly nextCursor: string | null;
}

/** A place pi sessions are created, reopened and listed. */
export interface SessionBackend {
  /** Whether sessions outlive this agent, so `session/load` and `session/list` work. */
  readonly stores: boolean;
  /** Starts a new session working in `cwd` (a bridge decides the workspace itself). */
  create(cwd: string, signal?: AbortSignal): Promise<OpenedSession>;
  /** Opens the stored session `id`; `undefined` when there is none. */
  open(id: string, signal?: AbortSignal): Promise<OpenedSession | undefined>;
  /** One page of the stored sessions. */
  list(cursor: string | undefined, signal?: AbortSignal): Promise<StoredSessionPage>;
}
