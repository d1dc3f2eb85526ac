import type { CheckpointSummary, FileChange } from "@pi-kit/protocol/bridge";
import { CANCELABLE_EVENT } from "../../internal/events.ts";

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

/**
 * Fired by `<pi-changes>` once the user confirmed "Undo this turn", before it asks the workspace
 * to restore the checkpoint taken when that turn started. Cancel it to restore it yourself.
 */
export class PiUndoTurnEvent extends Event {
  /** The checkpoint taken at the start of the turn. */
  readonly checkpoint: CheckpointSummary;

  constructor(checkpoint: CheckpointSummary) {
    super("pi-undo-turn", CANCELABLE_EVENT);
    this.checkpoint = checkpoint;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-revert-file": PiRevertFileEvent;
    "pi-undo-turn": PiUndoTurnEvent;
  }
}
