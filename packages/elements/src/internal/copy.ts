import { CANCELABLE_EVENT, PiErrorEvent } from "./events.ts";

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

// How long a copy button says "Copied".
const COPIED_MS = 1500;

/**
 * Copies `text` for the copy button `button`: fires `pi-copy` from it, writes the clipboard unless
 * that was cancelled, then marks the button `data-copied` for a moment. A failed write fires
 * `pi-error` (action `copy`).
 */
export async function copyFromButton(
  button: HTMLElement,
  text: string,
  kind: CopyKind,
): Promise<void> {
  if (button.dispatchEvent(new PiCopyEvent(text, kind))) {
    try {
      await navigator.clipboard.writeText(text);
    } catch (error) {
      button.dispatchEvent(new PiErrorEvent("copy", error));
      return;
    }
  }
  button.dataset.copied = "";
  setTimeout(() => delete button.dataset.copied, COPIED_MS);
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-copy": PiCopyEvent;
  }
}
