/**
 * The connections attached to one session and which of them controls it. Exactly one connection
 * (or none) drives pi; the others watch. The first connection to attach while nobody controls
 * takes control, unless it is read-only; a controller that leaves frees control (a controller
 * that reconnects within the grace period takes it back, unless someone took it meanwhile), or
 * hands it to the newest connection of the same label that attached after it: the same page
 * reloaded, or reconnected, before the bridge saw its old socket go. Otherwise a watcher takes
 * control only explicitly. Every change is announced to every connection.
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
  /** Sends one record as one text message. */
  send(line: string): void;
}

/** The connections of one session, in the order they attached, and the controller among them. */
export class SessionControl<C extends ControlledConnection> {
  readonly #connections = new Set<C>();
  #controller: C | undefined;

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

  /** Adds a connection; it takes control when nobody has it and it may. Announces the change. */
  attach(connection: C): void {
    this.#connections.add(connection);
    if (this.#controller === undefined && !connection.readOnly) this.#controller = connection;
    this.#announce(connection);
  }

  /**
   * Removes a connection; a leaving controller hands control to its successor (see the module
   * comment), or frees it. Returns whether it was attached.
   */
  detach(connection: C): boolean {
    if (!this.#connections.has(connection)) return false;
    if (this.#controller === connection) this.#controller = this.#successor(connection);
    this.#connections.delete(connection);
    this.#announce();
    return true;
  }

  /** The newest connection that attached after `leaving`, has its label and may control. */
  #successor(leaving: C): C | undefined {
    let after = false;
    let successor: C | undefined;
    for (const connection of this.#connections) {
      if (connection === leaving) after = true;
      else if (after && !connection.readOnly && connection.label === leaving.label) {
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
    this.#controller = connection;
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

  /** Forgets every connection (the session ends); returns them. */
  clear(): C[] {
    const all = [...this.#connections];
    this.#connections.clear();
    this.#controller = undefined;
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
