import type { SessionSummary } from "@pi-kit/client";

/** Fired by `<pi-session-list>` when a conversation is chosen; cancel it to keep the selection. */
export class PiSessionSelectEvent extends Event {
  /** The conversation chosen. */
  readonly session: SessionSummary;
  /** True when the list has just created it (New chat). */
  readonly created: boolean;

  constructor(session: SessionSummary, created = false) {
    super("pi-session-select", { bubbles: true, composed: true, cancelable: true });
    this.session = session;
    this.created = created;
  }
}

/** Fired by `<pi-session-list>` before it creates a conversation (New chat); cancel it to create it yourself. */
export class PiSessionCreateEvent extends Event {
  constructor() {
    super("pi-session-create", { bubbles: true, composed: true, cancelable: true });
  }
}

/** Fired by `<pi-session-list>` before it renames a conversation; cancel it to rename it yourself. */
export class PiSessionRenameEvent extends Event {
  /** The conversation as it is now. */
  readonly session: SessionSummary;
  /** The new title. */
  readonly title: string;

  constructor(session: SessionSummary, title: string) {
    super("pi-session-rename", { bubbles: true, composed: true, cancelable: true });
    this.session = session;
    this.title = title;
  }
}

/**
 * Fired by `<pi-session-list>` after the user confirmed a deletion, before the list deletes the
 * conversation (`pi-session-deleted` follows); cancel it to delete it yourself.
 */
export class PiSessionDeleteEvent extends Event {
  /** The conversation to delete. */
  readonly session: SessionSummary;

  constructor(session: SessionSummary) {
    super("pi-session-delete", { bubbles: true, composed: true, cancelable: true });
    this.session = session;
  }
}

/** Fired by `<pi-session-list>` once a conversation was deleted. */
export class PiSessionDeletedEvent extends Event {
  /** The conversation deleted. */
  readonly session: SessionSummary;
  /** True when it was the selected one (the list now has no selection). */
  readonly wasSelected: boolean;

  constructor(session: SessionSummary, wasSelected: boolean) {
    super("pi-session-deleted", { bubbles: true, composed: true });
    this.session = session;
    this.wasSelected = wasSelected;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-session-select": PiSessionSelectEvent;
    "pi-session-create": PiSessionCreateEvent;
    "pi-session-rename": PiSessionRenameEvent;
    "pi-session-delete": PiSessionDeleteEvent;
    "pi-session-deleted": PiSessionDeletedEvent;
  }
}
