import type { ImageContent } from "@pi-kit/protocol";
import type { SendMode } from "./pi-send.ts";

/** What the composer hands to its chat (an internal event; the chat fires the public `pi-send`). */
export class ComposerSubmitEvent extends Event {
  readonly text: string;
  readonly images: readonly ImageContent[];
  readonly mode: SendMode;

  constructor(text: string, images: readonly ImageContent[], mode: SendMode) {
    super("composer-submit");
    this.text = text;
    this.images = images;
    this.mode = mode;
  }
}
