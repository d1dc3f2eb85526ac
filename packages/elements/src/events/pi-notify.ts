import { CANCELABLE_EVENT } from "./event-init.ts";

/** How serious a notification is (pi's `notifyType`; absent means info). */
export type ToastType = "info" | "warning" | "error";

/** Where a notification came from: an extension's `notify`, or pi's own stderr (a diagnostic). */
export type NotifySource = "notify" | "stderr";

/**
 * Fired by `<pi-toasts>` before it shows a notification from pi. Cancel it to handle the
 * notification yourself (for example in the page's own toast system).
 */
export class PiNotifyEvent extends Event {
  /** The notification text. */
  readonly message: string;
  /** How serious it is. */
  readonly notifyType: ToastType;
  /** Where it came from. */
  readonly source: NotifySource;

  constructor(message: string, notifyType: ToastType, source: NotifySource = "notify") {
    super("pi-notify", CANCELABLE_EVENT);
    this.message = message;
    this.notifyType = notifyType;
    this.source = source;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-notify": PiNotifyEvent;
  }
}
