import type { SessionSummary } from "@pi-kit/client";
import { CANCELABLE_EVENT } from "./event-init.ts";

/**
 * Fired by `<pi-session-list>` after the user confirmed a deletion, before the list deletes the
 * conversation (`pi-session-deleted` follows); cancel it to delete it yourself.
 */
export class PiSessionDeleteEvent extends Event {
  /** The conversation to delete. */
  readonly session: SessionSummary;

  constructor(session: SessionSummary) {
    super("pi-session-delete", CANCELABLE_EVENT);
    this.session = session;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-session-delete": PiSessionDeleteEvent;
  }
}
