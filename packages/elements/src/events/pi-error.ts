import { PI_EVENT } from "./event-init.ts";

/** Fired when an action the element took through the client failed. */
export class PiErrorEvent extends Event {
  /** What failed: `send`, `abort`, `restore-queue`, `take-control` or `connect`. */
  readonly action: string;
  /** The error the client threw. */
  readonly error: unknown;

  constructor(action: string, error: unknown) {
    super("pi-error", PI_EVENT);
    this.action = action;
    this.error = error;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-error": PiErrorEvent;
  }
}
