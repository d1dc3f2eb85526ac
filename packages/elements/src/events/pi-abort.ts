import { CANCELABLE_EVENT } from "./event-init.ts";

/** Fired by `<pi-chat>` before it aborts the run (Esc or the stop button); cancelable. */
export class PiAbortEvent extends Event {
  constructor() {
    super("pi-abort", CANCELABLE_EVENT);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-abort": PiAbortEvent;
  }
}
