/**
 * Who controls the bridge session a WebSocket transport is attached to, as the transport reports
 * it: a snapshot, the events that announce changes and refusals, and the error of a refused
 * `takeControl()`.
 */
import type {
  BridgeConnectionRef,
  BridgeControlRecord,
  BridgeErrorRecord,
  BridgeRefusalCode,
  BridgeSelfRef,
} from "@pi-kit/protocol/bridge";

/** Who controls the session, from the bridge's latest `bridge_control` record on this socket. */
export interface ControlState {
  /** This connection. */
  readonly you: BridgeSelfRef;
  /** The connection that drives pi, or `null` when nobody does. */
  readonly controller: BridgeConnectionRef | null;
  /** How many connections are attached, the controller included. */
  readonly viewers: number;
  /** Whether this connection drives pi (its commands and dialog answers go through). */
  readonly inControl: boolean;
}

/** The control state a `bridge_control` record describes. */
export function controlState(record: BridgeControlRecord): ControlState {
  return {
    you: record.you,
    controller: record.controller,
    viewers: record.viewers,
    inControl: record.controller?.id === record.you.id,
  };
}

/**
 * Dispatched as `controlchange` by a WebSocket transport when who controls changes, when another
 * viewer comes or goes, and with `undefined` when the socket drops (until the next one says).
 */
export class ControlChangeEvent extends Event {
  /** The new state (also the transport's `control` at dispatch time). */
  readonly control: ControlState | undefined;

  constructor(control: ControlState | undefined) {
    super("controlchange");
    this.control = control;
  }
}

/**
 * Dispatched as `bridgeerror` by a WebSocket transport when the bridge refused a record that has
 * no pending call to fail: a dialog answer from a watcher, or a refused take-control.
 */
export class BridgeRefusalEvent extends Event {
  /** The bridge's refusal. */
  readonly record: BridgeErrorRecord;

  constructor(record: BridgeErrorRecord) {
    super("bridgeerror");
    this.record = record;
  }
}

/** Why `takeControl()` failed: the connection is read-only, or the socket closed first. */
export class TakeControlError extends Error {
  /** `read_only` (never allowed), or `closed` (the socket dropped or the transport closed). */
  readonly code: BridgeRefusalCode | "closed";

  constructor(code: BridgeRefusalCode | "closed", message: string) {
    super(message);
    this.name = "TakeControlError";
    this.code = code;
  }
}
