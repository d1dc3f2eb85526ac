import type { SessionFork, SessionSummary } from "@pi-kit/client";
import { CANCELABLE_EVENT, PI_EVENT } from "../../internal/events.ts";

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

/** Fired by `<pi-session-list>` before it creates a conversation (New chat); cancel it to create it yourself. */
export class PiSessionCreateEvent extends Event {
  constructor() {
    super("pi-session-create", CANCELABLE_EVENT);
  }
}

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
    "pi-session-select": PiSessionSelectEvent;
    "pi-session-create": PiSessionCreateEvent;
    "pi-session-rename": PiSessionRenameEvent;
    "pi-session-delete": PiSessionDeleteEvent;
    "pi-session-deleted": PiSessionDeletedEvent;
  }
}
