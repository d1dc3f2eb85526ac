import type { ImageContent } from "@pi-kit/protocol";
import { CANCELABLE_EVENT } from "./event-init.ts";

/** How a composed message goes out: a new prompt, or queued while the agent works. */
export type SendMode = "prompt" | "steer" | "followUp";

/**
 * Fired by `<pi-chat>` before it sends a message. Cancel it (`preventDefault()`) to send it
 * yourself, for example when the element only has a session model and no client.
 */
export class PiSendEvent extends Event {
  /** The text typed. */
  readonly text: string;
  /** Attached images, base64 without a `data:` prefix. */
  readonly images: readonly ImageContent[];
  /** Prompt when idle; steer or follow-up while the agent streams. */
  readonly mode: SendMode;

  constructor(text: string, images: readonly ImageContent[], mode: SendMode) {
    super("pi-send", CANCELABLE_EVENT);
    this.text = text;
    this.images = images;
    this.mode = mode;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-send": PiSendEvent;
  }
}
