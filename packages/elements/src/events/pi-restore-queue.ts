import { CANCELABLE_EVENT } from "./event-init.ts";

/** Fired by `<pi-chat>` before it takes the queued messages back into the composer; cancelable. */
export class PiRestoreQueueEvent extends Event {
  constructor() {
    super("pi-restore-queue", CANCELABLE_EVENT);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-restore-queue": PiRestoreQueueEvent;
  }
}
