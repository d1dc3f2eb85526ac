/**
 * Keyboard movement through a list of options, shared by every listbox-like element (dialog
 * select, fork picker, slash menu) so they all answer the same keys the same way.
 */

/** How many rows PageUp / PageDown move. */
const PAGE = 10;

/**
 * The index a navigation key moves to, or `undefined` when the key is not a navigation key.
 * `wrap` makes ArrowUp on the first option go to the last (menus) instead of staying (lists).
 */
export function moveIndex(
  key: string,
  current: number,
  count: number,
  wrap = false,
): number | undefined {
  if (count === 0) return undefined;
  const last = count - 1;
  switch (key) {
    case "ArrowDown":
      return current < last ? current + 1 : wrap ? 0 : last;
    case "ArrowUp":
      return current > 0 ? current - 1 : wrap ? last : 0;
    case "Home":
      return 0;
    case "End":
      return last;
    case "PageDown":
      return Math.min(current + PAGE, last);
    case "PageUp":
      return Math.max(current - PAGE, 0);
    default:
      return undefined;
  }
}

/**
 * Type-to-select: printable keys typed within half a second form a prefix, and the next option
 * starting with it (case-insensitive) is chosen; repeating one letter cycles through its options.
 */
export class Typeahead {
  #buffer = "";
  #at = 0;

  /** The index the key selects, or `undefined` (not printable, or no match). */
  match(event: KeyboardEvent, labels: readonly string[], current: number): number | undefined {
    if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey) return undefined;
    const now = event.timeStamp;
    const key = event.key.toLowerCase();
    this.#buffer = now - this.#at > 500 ? key : this.#buffer + key;
    this.#at = now;
    const repeated = [...this.#buffer].every((c) => c === key);
    const prefix = repeated ? key : this.#buffer;
    // Start after the current option when cycling, at it when extending a prefix.
    const start = repeated ? current + 1 : current;
    for (let i = 0; i < labels.length; i++) {
      const index = (start + i) % labels.length;
      if (labels[index]?.toLowerCase().startsWith(prefix)) return index;
    }
    return undefined;
  }
}
