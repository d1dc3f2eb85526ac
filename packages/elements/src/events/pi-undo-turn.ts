import type { CheckpointSummary } from "@pi-kit/protocol/bridge";
import { CANCELABLE_EVENT } from "./event-init.ts";

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
    "pi-undo-turn": PiUndoTurnEvent;
  }
}
