import type { DialogRequest } from "@pi-kit/protocol";
import { CANCELABLE_EVENT } from "./event-init.ts";

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

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-dialog-answer": PiDialogAnswerEvent;
  }
}
