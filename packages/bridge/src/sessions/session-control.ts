/**
 * The connections attached to one session and which of them controls it. Exactly one connection
 * (or none) drives pi; the others watch. The first connection to attach while nobody controls
 * takes control, unless it is read-only; a controller that leaves frees control (a controller
 * that reconnects within the grace period takes it back, unless someone took it meanwhile), or
 * hands it to the newest connection of the same label or viewer that attached after it: the same
 * page reloaded, or reconnected, before the bridge saw its old socket go. A connection of the
 * controller's own viewer identity takes control the moment it attaches if the controller has
 * never sent a record: a socket no client stands behind (an upgrade forwarded here after its
 * client gave up on it) must not keep control from the client back on a new one, while such a
 * ghost arriving late never takes control from a client that is talking. Otherwise a watcher
 * takes control only explicitly. Every change is announced to every connection.
 *
 * A session that starts again (a restarted bridge, a pi that exited) may wait for the viewer that
 * controlled it before: until that viewer's identity attaches, or the wait ends, everyone watches;
 * then the oldest connection that may control takes it. Taking control explicitly ends the wait.
 */
import {
  type BridgeControlRecord,
  type BridgeErrorRecord,
  WATCHER_COMMANDS,
} from "@pi-kit/protocol/bridge";
import { DENIED_PREFIX } from "../security/command-policy.ts";

/** A connection as control sees it. */
export interface ControlledConnection {
  /** A number for the logs and the control records. */
  readonly id: number;
  /** A display name for the other connections. */
  readonly label: string;
  /** The connection may never control (a read-only ticket). */
  readonly readOnly: boolean;
  /** Who the viewer is across connections and restarts (see `viewerIdentity`), if its client said. */
  readonly viewer?: string | undefined;
  /** Whether its client has sent a record yet (a socket nobody stands behind never does). */
  readonly heard?: boolean;
  /** Sends one record as one text message. */
  send(line: string): void;
}

/** How control of a session starts, and who hears of its changes. */
export interface ControlStart {
  /** Control waits `ms` for the viewer `identity`, which controlled the session before. */
  readonly reclaim?: { readonly identity: string; readonly ms: number } | undefined;
  /** Told the controller's identity whenever the controller changes (`undefined`: none, or no identity). */
  readonly onChange?: ((identity: string | undefined) => void) | undefined;
}

/** The connections of one session, in the order they attached, and the controller among them. */
export class SessionControl<C extends ControlledConnection> {
  readonly #connections = new Set<C>();
  #controller: C | undefined;
  readonly #onChange: ((identity: string | undefined) => void) | undefined;
  /** The identity control waits for, while it waits. */
  #awaited: string | undefined;
  #waitTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(start: ControlStart = {}) {
    this.#onChange = start.onChange;
    if (start.reclaim === undefined) return;
    this.#awaited = start.reclaim.identity;
    this.#waitTimer = setTimeout(() => this.#endWait(true), start.reclaim.ms);
    // The wait alone must not keep a Node or Bun process alive.
    (this.#waitTimer as { unref?: () => void }).unref?.();
  }

  /** Whether control waits for the viewer that held it before. */
  get waiting(): boolean {
    return this.#awaited !== undefined;
  }

  /** The attached connections, oldest first. */
  get connections(): ReadonlySet<C> {
    return this.#connections;
  }

  /** The connection that drives pi, if any. */
  get controller(): C | undefined {
    return this.#controller;
  }

  /** Whether `connection` may drive pi. */
  controls(connection: C): boolean {
    return this.#controller === connection;
  }

  /**
   * Adds a connection; it takes control when nobody has it, or when the controller is its own
   * viewer's older socket that never sent a record, and it may. Announces the change.
   */
  attach(connection: C): void {
    this.#connections.add(connection);
    if (connection.readOnly) {
      // Watches, whoever controls.
    } else if (this.#controller === undefined) {
      if (this.#awaited === undefined) this.#set(connection);
      else if (connection.viewer === this.#awaited) {
        this.#endWait(false);
        this.#set(connection);
      }
    } else if (
      connection.viewer !== undefined &&
      connection.viewer === this.#controller.viewer &&
      this.#controller.heard === false
    ) {
      this.#set(connection);
    }
    this.#announce(connection);
  }

  /** Ends the wait for the former controller; `handOver`: the oldest that may control takes it. */
  #endWait(handOver: boolean): void {
    if (this.#awaited === undefined) return;
    this.#awaited = undefined;
    clearTimeout(this.#waitTimer);
    if (!handOver || this.#controller !== undefined) return;
    for (const connection of this.#connections) {
      if (connection.readOnly) continue;
      this.#set(connection);
      this.#announce();
      return;
    }
  }

  /** Makes `next` the controller, telling `onChange` when that is a change. */
  #set(next: C | undefined): void {
    if (next === this.#controller) return;
    this.#controller = next;
    this.#onChange?.(next?.viewer);
  }

  /**
   * Removes a connection; a leaving controller hands control to its successor (see the module
   * comment), or frees it. Returns whether it was attached.
   */
  detach(connection: C): boolean {
    if (!this.#connections.has(connection)) return false;
    if (this.#controller === connection) this.#set(this.#successor(connection));
    this.#connections.delete(connection);
    this.#announce();
    return true;
  }

  /** The newest connection that attached after `leaving`, has its label or viewer and may control. */
  #successor(leaving: C): C | undefined {
    let after = false;
    let successor: C | undefined;
    for (const connection of this.#connections) {
      if (connection === leaving) after = true;
      else if (after && !connection.readOnly && sameViewer(connection, leaving)) {
        successor = connection;
      }
    }
    return successor;
  }

  /**
   * Makes `connection` the controller and announces it; a read-only connection gets a
   * `bridge_error` (`read_only`) instead. Taking control one already has only re-announces.
   */
  takeControl(connection: C): boolean {
    if (!this.#connections.has(connection)) return false;
    if (connection.readOnly) {
      const refusal: BridgeErrorRecord = {
        type: "bridge_error",
        command: "bridge_take_control",
        code: "read_only",
        error: "This connection is read-only: it can watch the session, never control it",
      };
      connection.send(JSON.stringify(refusal));
      return false;
    }
    this.#endWait(false);
    this.#set(connection);
    this.#announce();
    return true;
  }

  /**
   * The refusal for a record `connection` may not send because it does not control the session:
   * a pi-style failure response for a command (so the pending call fails), a `bridge_error` for
   * a dialog answer; `undefined` when it may send it (it controls, or the command is a query).
   */
  refusal(
    connection: C,
    record: { readonly type: string; readonly id?: string | number | undefined },
  ): string | undefined {
    if (this.controls(connection)) return undefined;
    if ((WATCHER_COMMANDS as ReadonlySet<string>).has(record.type)) return undefined;
    const code = connection.readOnly ? "read_only" : "not_in_control";
    const holder = this.controllerLabel();
    const error = connection.readOnly
      ? `${DENIED_PREFIX}this connection is read-only; it can watch, never send \`${record.type}\``
      : `${DENIED_PREFIX}this connection is watching (${holder === undefined ? "nobody" : holder} is in control); take control (bridge_take_control) to send \`${record.type}\``;
    if (record.type === "extension_ui_response") {
      const refused: BridgeErrorRecord = {
        type: "bridge_error",
        command: record.type,
        ...(typeof record.id === "string" ? { id: record.id } : {}),
        code,
        error,
      };
      return JSON.stringify(refused);
    }
    return JSON.stringify({
      type: "response",
      ...(record.id === undefined ? {} : { id: record.id }),
      command: record.type,
      success: false,
      error,
      code,
    });
  }

  /**
   * Forgets every connection (the session ends); returns them. Not a change of controller: the
   * one that had control keeps it for when the session starts again.
   */
  clear(): C[] {
    const all = [...this.#connections];
    this.#connections.clear();
    this.#controller = undefined;
    this.#awaited = undefined;
    clearTimeout(this.#waitTimer);
    return all;
  }

  /** The label of the controller, for refusal messages. */
  controllerLabel(): string | undefined {
    return this.#controller?.label;
  }

  /** Sends each connection the current control record; `first` gets its own before the others. */
  #announce(first?: C): void {
    if (first !== undefined) first.send(this.record(first));
    for (const connection of this.#connections) {
      if (connection !== first) connection.send(this.record(connection));
    }
  }

  /** The control record as `connection` sees it. */
  record(connection: C): string {
    const controller = this.#controller;
    const record: BridgeControlRecord = {
      type: "bridge_control",
      you: { id: connection.id, label: connection.label, readOnly: connection.readOnly },
      controller: controller === undefined ? null : { id: controller.id, label: controller.label },
      viewers: this.#connections.size,
    };
    return JSON.stringify(record);
  }
}

/** Whether `a` and `b` are the same viewer: the same label, or the same viewer identity. */
function sameViewer(a: ControlledConnection, b: ControlledConnection): boolean {
  return a.label === b.label || (a.viewer !== undefined && a.viewer === b.viewer);
}
