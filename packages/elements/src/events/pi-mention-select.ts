import type { WorkspaceEntry } from "@pi-kit/client";

/**
 * Fired by `<pi-mention-menu>` when a file or directory is chosen. Unless cancelled, an attached
 * `input` gets `text` (`@path`, as pi's TUI writes it) in place of the `@` token typed.
 */
export class PiMentionSelectEvent extends Event {
  /** The chosen file or directory. */
  readonly entry: WorkspaceEntry;
  /** What goes into the text: `@path`, `@"path with spaces"`, or `@dir/` for a directory. */
  readonly text: string;

  constructor(entry: WorkspaceEntry, text: string) {
    // CANCELABLE_EVENT spelt out: importing `event-init.ts` from the lazily loaded mention menu
    // would split it into a chunk of its own, a request more on the chat page.
    super("pi-mention-select", { bubbles: true, composed: true, cancelable: true });
    this.entry = entry;
    this.text = text;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-mention-select": PiMentionSelectEvent;
  }
}
