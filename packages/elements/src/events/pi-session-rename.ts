import type { SessionSummary } from "@pi-kit/client";
import { CANCELABLE_EVENT } from "./event-init.ts";

/** Fired by `<pi-session-list>` before it renames a conversation; cancel it to rename it yourself. */
export class PiSessionRenameEvent extends Event {
  /** The conversation as it is now. */
  readonly session: SessionSummary;
  /** The new title. */
  readonly title: string;

  constructor(session: SessionSummary, title: string) {
    super("pi-session-rename", CANCELABLE_EVENT);
    this.session = session;
    this.title = title;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-session-rename": PiSessionRenameEvent;
  }
}
