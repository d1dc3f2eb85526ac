import { CANCELABLE_EVENT } from "./event-init.ts";

/** What a copy button copies. */
export type CopyKind = "message" | "code";

/**
 * Fired before a copy button writes to the clipboard; cancel it to copy yourself (for example
 * in a webview whose clipboard API is unavailable).
 */
export class PiCopyEvent extends Event {
  /** The text to copy (a message as markdown, or a code block's code). */
  readonly text: string;
  /** What is copied. */
  readonly kind: CopyKind;

  constructor(text: string, kind: CopyKind) {
    super("pi-copy", CANCELABLE_EVENT);
    this.text = text;
    this.kind = kind;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-copy": PiCopyEvent;
  }
}
