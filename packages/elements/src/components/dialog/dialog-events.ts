import type { DialogRequest } from "@pi-kit/protocol";
import { CANCELABLE_EVENT, PI_EVENT } from "../../internal/events.ts";

/** Why a dialog is being cancelled: the user chose to, or its time ran out. */
export type DialogCancelReason = "user" | "timeout";

/**
 * Fired by `<pi-dialog>` before it answers a dialog. Cancel it (`preventDefault()`) to keep the
 * dialog open, for example to reject an empty input; otherwise the dialog closes and, with a
 * client, the answer goes to pi.
 */
export class PiDialogAnswerEvent extends Event {
  /** The request being answered. */
  readonly request: DialogRequest;
  /** The chosen option (select), typed text (input, editor) or yes/no (confirm). */
  readonly value: string | boolean;

  constructor(request: DialogRequest, value: string | boolean) {
    super("pi-dialog-answer", CANCELABLE_EVENT);
    this.request = request;
    this.value = value;
  }
}

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
    "pi-dialog-answer": PiDialogAnswerEvent;
    "pi-dialog-cancel": PiDialogCancelEvent;
  }
}
