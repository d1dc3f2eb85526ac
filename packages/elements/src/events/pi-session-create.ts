import { CANCELABLE_EVENT } from "./event-init.ts";

/** Fired by `<pi-session-list>` before it creates a conversation (New chat); cancel it to create it yourself. */
export class PiSessionCreateEvent extends Event {
  constructor() {
    super("pi-session-create", CANCELABLE_EVENT);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-session-create": PiSessionCreateEvent;
  }
}
