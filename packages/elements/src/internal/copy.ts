import { PiCopyEvent } from "../events/pi-copy.ts";
import { PiErrorEvent } from "../events/pi-error.ts";

/** What a copy button copies. */
export type CopyKind = "message" | "code";

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
