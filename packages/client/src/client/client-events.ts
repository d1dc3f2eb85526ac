import type { ExtensionUiRequest, RpcEvent } from "@pi-kit/protocol";

/** Emitted by the client (on both lines) when a run is truly over: `agent_settled` or the 0.73.x fallback. */
export interface RunSettledEvent {
  readonly type: "run_settled";
  readonly aborted: boolean;
}

/**
 * Emitted after a reconnecting transport (WebSocket) reconnected and the client resynchronised:
 * the session model again matches pi, and dialogs still pending are shown.
 */
export interface SessionResyncedEvent {
  readonly type: "session_resynced";
  /** The transport's connection generation now in use (2 after the first reconnect). */
  readonly generation: number;
}

/** What made the client show another session. */
export type SessionChangeReason = "new_session" | "switch_session" | "fork" | "clone" | "reconnect";

/** The session the client shows changed: a session command, a reconnect, or a resume. */
export interface SessionChangedEvent {
  readonly type: "session_changed";
  /** What changed it. */
  readonly reason: SessionChangeReason;
  /** pi's session id now (from get_state). */
  readonly sessionId: string | undefined;
  /** pi's session file now, when pi persists sessions. */
  readonly sessionFile: string | undefined;
}

/**
 * pi wrote to stderr: a diagnostic it has no RPC record for (an extension that failed to load when
 * a session was replaced, a model it could not restore). Lines written together arrive as one
 * event, bounded in size and rate; the same through a bridge and from a child process.
 */
export interface PiStderrEvent {
  readonly type: "pi_stderr";
  /** The lines, without the final line break. */
  readonly text: string;
}

/**
 * Everything a client delivers to listeners: pi's events, extension-UI requests, `run_settled`,
 * `session_resynced`, `session_changed` and `pi_stderr`.
 */
export type ClientEvent =
  | RpcEvent
  | ExtensionUiRequest
  | RunSettledEvent
  | SessionResyncedEvent
  | SessionChangedEvent
  | PiStderrEvent;

/** The event of type `K`. */
export type ClientEventOf<K extends ClientEvent["type"]> = Extract<
  ClientEvent,
  { readonly type: K }
>;
