import type { ThinkingLevel } from "@pi-kit/protocol";
import { CANCELABLE_EVENT } from "./event-init.ts";

/** Fired by `<pi-thinking-picker>` before it sets the level; cancel it to set it yourself. */
export class PiThinkingChangeEvent extends Event {
  /** The level chosen. */
  readonly level: ThinkingLevel;

  constructor(level: ThinkingLevel) {
    super("pi-thinking-change", CANCELABLE_EVENT);
    this.level = level;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-thinking-change": PiThinkingChangeEvent;
  }
}
