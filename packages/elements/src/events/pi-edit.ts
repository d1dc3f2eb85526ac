import type { AgentMessage } from "@pi-kit/protocol";
import { CANCELABLE_EVENT } from "./event-init.ts";

/**
 * Fired when the user sends an edited message, before the chat forks at it and sends the new
 * text (the old branch stays in the session tree). Cancel it to do something else.
 */
export class PiEditEvent extends Event {
  /** The user message as it was. */
  readonly message: AgentMessage;
  /** The new text. */
  readonly text: string;

  constructor(message: AgentMessage, text: string) {
    super("pi-edit", CANCELABLE_EVENT);
    this.message = message;
    this.text = text;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-edit": PiEditEvent;
  }
}
