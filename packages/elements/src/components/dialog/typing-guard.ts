/**
 * A dialog opens when pi asks, not when the user is ready: it takes the focus, so the Enter or
 * space someone was about to type into the composer would answer it instead (No on a confirm, the
 * first option of a select). For a moment after a dialog took the focus from a text field, those
 * keys do nothing in it; browsers guard their permission prompts against such keystrokes the same
 * way. Escape, arrows and every key after the moment work as usual.
 */

/** How long after opening a dialog ignores Enter and space that were meant for a text field, in ms. */
export const TYPING_GUARD_MS = 500;

/** The keys that answer a dialog. */
const ANSWERING = new Set(["Enter", " "]);

/** Whether `element` takes typed text (the keys that answer a dialog mean something else there). */
export function isTextField(element: Element | undefined): boolean {
  if (element === undefined) return false;
  return (
    element.localName === "textarea" ||
    element.localName === "input" ||
    (element as HTMLElement).isContentEditable === true
  );
}

/** Decides which keys a dialog that just took the focus ignores; times are `performance.now()` ms. */
export class TypingGuard {
  #until = -Infinity;

  /** A dialog took the focus at `now` from `from` (the element focused before it). */
  opened(from: Element | undefined, now: number): void {
    this.#until = isTextField(from) ? now + TYPING_GUARD_MS : -Infinity;
  }

  /** Whether a keydown of `key` at `now` (an event's `timeStamp`) must not reach the dialog. */
  ignores(key: string, now: number): boolean {
    return ANSWERING.has(key) && now < this.#until;
  }
}
