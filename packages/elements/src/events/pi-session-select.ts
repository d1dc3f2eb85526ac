import type { SessionFork, SessionSummary } from "@pi-kit/client";
import { CANCELABLE_EVENT } from "./event-init.ts";

/**
 * Fired by `<pi-session-list>` when a conversation is chosen, or one of its other versions (`fork`:
 * open the conversation, then switch pi to that file); cancel it to keep the selection.
 */
export class PiSessionSelectEvent extends Event {
  /** The conversation chosen. */
  readonly session: SessionSummary;
  /** True when the list has just created it (New chat). */
  readonly created: boolean;
  /** The session file chosen, when it is not the one the conversation continues. */
  readonly fork: SessionFork | undefined;

  constructor(session: SessionSummary, created = false, fork?: SessionFork) {
    super("pi-session-select", CANCELABLE_EVENT);
    this.session = session;
    this.created = created;
    this.fork = fork;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-session-select": PiSessionSelectEvent;
  }
}
