import type { ForkMessage } from "@pi-kit/protocol";
import { CANCELABLE_EVENT } from "./event-init.ts";

/** Fired by `<pi-fork-picker>` before it forks; cancel it to fork yourself. */
export class PiForkEvent extends Event {
  /** The user message to fork from. */
  readonly message: ForkMessage;

  constructor(message: ForkMessage) {
    super("pi-fork", CANCELABLE_EVENT);
    this.message = message;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-fork": PiForkEvent;
  }
}
