import type { DialogRequest } from "@pi-kit/protocol";
import { PI_EVENT } from "./event-init.ts";

/** Why a dialog is being cancelled: the user chose to, or its time ran out. */
export type DialogCancelReason = "user" | "timeout";

/**
 * Fired by `<pi-dialog>` before it cancels a dialog (Esc, the cancel button, or the countdown
 * reaching zero). A user cancel can be prevented to keep the dialog open; a timeout cannot.
 */
export class PiDialogCancelEvent extends Event {
  /** The request being cancelled. */
  readonly request: DialogRequest;
  /** Who cancelled. */
  readonly reason: DialogCancelReason;

  constructor(request: DialogRequest, reason: DialogCancelReason) {
    super("pi-dialog-cancel", { ...PI_EVENT, cancelable: reason === "user" });
    this.request = request;
    this.reason = reason;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-dialog-cancel": PiDialogCancelEvent;
  }
}
