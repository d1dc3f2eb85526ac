import type { AgentMessage } from "@pi-kit/protocol";
import { CANCELABLE_EVENT } from "./event-init.ts";

/**
 * Fired by a message's Retry button before the answer is asked for again (pi has no regenerate:
 * the chat forks at the user message before the answer and sends it again). Cancel it to do
 * something else.
 */
export class PiRetryEvent extends Event {
  /** The answer to replace. */
  readonly message: AgentMessage;

  constructor(message: AgentMessage) {
    super("pi-retry", CANCELABLE_EVENT);
    this.message = message;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-retry": PiRetryEvent;
  }
}
