/**
 * Tab numbers for the viewer labels ("Chrome on Linux · tab 2"), unique across every browser of
 * one demo server, so two browsers of one kind are "tab 1" and "tab 2". A tab asks with the key
 * and number it kept (a reload keeps its number); a number another tab holds is never given out
 * again, the lowest free one is.
 */
export class TabNumbers {
  readonly #holders = new Map<number, string>();

  /** The number of the tab with `key`: `kept` unless another tab holds it, else the lowest free. */
  claim(key: string, kept?: unknown): number {
    if (typeof kept === "number" && Number.isInteger(kept) && kept > 0) {
      if ((this.#holders.get(kept) ?? key) === key) {
        this.#holders.set(kept, key);
        return kept;
      }
    }
    let number = 1;
    while (this.#holders.has(number)) number++;
    this.#holders.set(number, key);
    return number;
  }
}
