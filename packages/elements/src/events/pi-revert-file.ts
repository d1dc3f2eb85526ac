import type { FileChange } from "@pi-kit/protocol/bridge";
import { CANCELABLE_EVENT } from "./event-init.ts";

/**
 * Fired by `<pi-changes>` once the user confirmed "Revert file", before it asks the workspace to
 * revert it. Cancel it to revert the file yourself.
 */
export class PiRevertFileEvent extends Event {
  /** The file, as the changes list showed it. */
  readonly change: FileChange;

  constructor(change: FileChange) {
    super("pi-revert-file", CANCELABLE_EVENT);
    this.change = change;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-revert-file": PiRevertFileEvent;
  }
}
