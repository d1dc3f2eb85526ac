import type { ProtocolError } from "@pi-kit/protocol";
import type { ControlState } from "./websocket/control-state.ts";

/** One inbound item: a complete JSONL record (without its LF), or a framing error in its place. */
export type TransportFrame = string | ProtocolError;

/**
 * The frames one read of the channel produced (a pipe chunk, a WebSocket message), in order and
 * never empty: a consumer pays one stream read per chunk, not one per record.
 */
export type TransportFrames = readonly TransportFrame[];

/** Why a transport closed. */
export interface TransportCloseInfo {
  /** `exit`: the pi process ended; `closed`: closed locally; `eof`: the peer ended the stream; `error`: the channel failed. */
  readonly reason: "exit" | "closed" | "eof" | "error";
  /** The process exit code, when a process ended. */
  readonly exitCode?: number | null;
  /** The signal that ended the process, when one did. */
  readonly signal?: string | null;
  /** The last lines pi wrote to stderr, for diagnostics. */
  readonly stderrTail?: string;
  /** The underlying error for `error`. */
  readonly error?: unknown;
}

/**
 * A duplex channel of JSONL records to one pi process: the only thing the client core depends on.
 * Runtime specifics (child processes, sockets, WebSocket, replay) live in implementations.
 */
export interface Transport {
  /** Inbound records in arrival order, in batches; it ends when the channel closes. */
  readonly readable: ReadableStream<TransportFrames>;
  /** Outbound records, each one line as produced by `encodeRecord` (JSON plus LF). */
  readonly writable: WritableStream<string>;
  /** Settles once, when the channel has closed for good. */
  readonly closed: Promise<TransportCloseInfo>;
  /** Closes the channel gracefully (for a process: stdin first, then signals); resolves when closed. */
  close(): Promise<TransportCloseInfo>;
}

/** What a {@link ReconnectingTransport} reports when a new connection replaced a dropped one. */
export interface ReconnectInfo {
  /** The new connection's generation: 2 for the first reconnect, 3 for the next, … */
  readonly generation: number;
}

/**
 * A transport that survives dropped connections (the WebSocket transport). Its `readable` does not
 * end on a drop: the new connection's records follow on the same stream. Records pi wrote while
 * disconnected are lost, which is why the client resynchronises on {@link onReconnect}.
 */
export interface ReconnectingTransport extends Transport {
  /** How many connections have opened so far; read after a write resolves, it names the connection that carried it. */
  readonly generation: number;
  /**
   * Registers a listener called in stream order: once every record of the dropped connection has
   * been read from `readable`, before the first record of the new one. Returns its remover.
   */
  onReconnect(listener: (info: ReconnectInfo) => void): () => void;
}

/** True when `transport` reconnects by itself and reports it (see {@link ReconnectingTransport}). */
export function isReconnectingTransport(transport: Transport): transport is ReconnectingTransport {
  const candidate = transport as Partial<ReconnectingTransport>;
  return typeof candidate.onReconnect === "function" && typeof candidate.generation === "number";
}

/**
 * A transport to a session other connections share (the WebSocket transport to a bridge): any of
 * them may answer one of pi's dialogs, and pi never says a dialog is over, so the transport does.
 */
export interface SharedTransport extends Transport {
  /**
   * Registers a listener called when another connection answered (or cancelled) the dialog with
   * this id. It may come before the dialog's own request is read. Returns its remover.
   */
  onDialogClosed(listener: (id: string) => void): () => void;
}

/** True when other connections may answer `transport`'s dialogs (see {@link SharedTransport}). */
export function isSharedTransport(transport: Transport): transport is SharedTransport {
  return typeof (transport as Partial<SharedTransport>).onDialogClosed === "function";
}

/**
 * A transport that passes on what pi writes to stderr (its diagnostics: an extension that failed
 * to load, a model it could not restore), coalesced into bounded messages: the child-process
 * transport reads pi's stderr, the WebSocket transport gets the bridge's `bridge_pi_stderr`.
 */
export interface StderrTransport extends Transport {
  /** Registers a listener for each message of pi's stderr (one burst of lines). Returns its remover. */
  onPiStderr(listener: (text: string) => void): () => void;
}

/** True when `transport` passes on pi's stderr (see {@link StderrTransport}). */
export function isStderrTransport(transport: Transport): transport is StderrTransport {
  return typeof (transport as Partial<StderrTransport>).onPiStderr === "function";
}

/**
 * A transport to a session several connections watch and one drives (the WebSocket transport to
 * a bridge): it says who controls the session and can take control. A `controlchange` event
 * follows every change of `control`.
 */
export interface ControlledTransport extends Transport, EventTarget {
  /** Who controls the session, once the bridge has said; `undefined` while not connected. */
  readonly control: ControlState | undefined;
  /** Makes this connection the one that drives pi; resolves with the new state. */
  takeControl(): Promise<ControlState>;
}

/** True when `transport` reports and can take control of its session (see {@link ControlledTransport}). */
export function isControlledTransport(transport: Transport): transport is ControlledTransport {
  const candidate = transport as Partial<ControlledTransport>;
  return (
    typeof candidate.takeControl === "function" && typeof candidate.addEventListener === "function"
  );
}
