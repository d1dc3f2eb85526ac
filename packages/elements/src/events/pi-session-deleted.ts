import type { SessionSummary } from "@pi-kit/client";
import { PI_EVENT } from "./event-init.ts";

/** Fired by `<pi-session-list>` once a conversation was deleted. */
export class PiSessionDeletedEvent extends Event {
  /** The conversation deleted. */
  readonly session: SessionSummary;
  /** True when it was the selected one (the list now has no selection). */
  readonly wasSelected: boolean;

  constructor(session: SessionSummary, wasSelected: boolean) {
    super("pi-session-deleted", PI_EVENT);
    this.session = session;
    this.wasSelected = wasSelected;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-session-deleted": PiSessionDeletedEvent;
  }
}
