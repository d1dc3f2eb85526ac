/**
 * Who controls the bridge session, as a WebSocket transport tracks it across its sockets: the
 * bridge's latest word on the open socket, the `takeControl()` calls waiting for an answer, and
 * taking control back after a ticket renewal replaced the socket that had it.
 */
import type { BridgeControlRecord, BridgeErrorRecord } from "@pi-kit/protocol/bridge";
import { type ControlState, controlState, TakeControlError } from "./control-state.ts";
import type { WebSocketLike } from "./socket.ts";

/** The part of a socket control needs: sending the bridge a take-control record. */
export type ControlSocket = Pick<WebSocketLike, "send">;

const TAKE_CONTROL = '{"type":"bridge_take_control"}';

/** The control state of one transport; `changed` hears every new state (to dispatch `controlchange`). */
export class ControlHandoff {
  readonly #changed: (control: ControlState | undefined) => void;
  #control: ControlState | undefined;
  #takers: Array<{ resolve: (c: ControlState) => void; reject: (e: TakeControlError) => void }> =
    [];
  /** After a renewal from a socket in control: take control back on the new socket if nobody has it. */
  #reclaim: { socket: ControlSocket; from: number; asked: boolean } | undefined;

  constructor(changed: (control: ControlState | undefined) => void) {
    this.#changed = changed;
  }

  /** What the bridge last said on the open socket; `undefined` until it said, and after a drop. */
  get current(): ControlState | undefined {
    return this.#control;
  }

  /** Asks the bridge on `socket` for control; settles when it answers with control or a refusal. */
  take(socket: ControlSocket): Promise<ControlState> {
    return new Promise((resolve, reject) => {
      this.#takers.push({ resolve, reject });
      socket.send(TAKE_CONTROL);
    });
  }

  /** The bridge said who controls, on `socket`. */
  received(record: BridgeControlRecord, socket: ControlSocket): void {
    const control = controlState(record);
    this.#control = control;
    this.#reclaimControl(control, socket);
    if (control.inControl) {
      for (const taker of this.#takers.splice(0)) taker.resolve(control);
    }
    this.#changed(control);
  }

  /** The bridge refused a record; a refused take-control fails the calls waiting for control. */
  refused(record: BridgeErrorRecord): void {
    if (record.command !== "bridge_take_control") return;
    const refusal = new TakeControlError(record.code, record.error);
    for (const taker of this.#takers.splice(0)) taker.reject(refusal);
  }

  /**
   * A ticket renewal is about to replace the open socket: `replaced` swaps it and answers the new
   * one, which takes control back if the old one had it.
   */
  renewing(replaced: () => ControlSocket | undefined): void {
    const from = this.#control?.inControl === true ? this.#control.you.id : undefined;
    const replacement = replaced();
    if (from !== undefined && replacement !== undefined) {
      this.#reclaim = { socket: replacement, from, asked: false };
    }
  }

  /** The socket is gone: so is what the bridge said about it, and any wait to take control. */
  lost(): void {
    const error = new TakeControlError("closed", "the connection closed before control was taken");
    for (const taker of this.#takers.splice(0)) taker.reject(error);
    if (this.#control === undefined) return;
    this.#control = undefined;
    this.#changed(undefined);
  }

  /**
   * After a renewal, the socket that replaced the controller takes control back once the old one
   * has left (the bridge may see the new socket first); someone else taking it ends the claim.
   */
  #reclaimControl(control: ControlState, socket: ControlSocket): void {
    const reclaim = this.#reclaim;
    if (reclaim === undefined) return;
    if (reclaim.socket !== socket || control.inControl) {
      this.#reclaim = undefined;
      return;
    }
    const holder = control.controller?.id;
    if (holder !== undefined && holder !== reclaim.from) {
      this.#reclaim = undefined;
      return;
    }
    if (holder === undefined && !reclaim.asked) {
      reclaim.asked = true;
      socket.send(TAKE_CONTROL);
    }
  }
}
