/**
 * The count of unseen events in front of the page title, `(2) My app`, shared by every notifier
 * on the page and cleared when the page is looked at again.
 */

let count = 0;
/** The title the page set, without the badge. */
let base: string | undefined;
/** The title as this module last wrote it, to notice when the page changes it meanwhile. */
let written: string | undefined;

function render(): void {
  if (typeof document === "undefined") return;
  // The page set a title of its own while the badge was showing: that is the new base.
  if (written !== undefined && document.title !== written) base = document.title;
  if (count === 0) {
    if (base !== undefined && written !== undefined && document.title === written)
      document.title = base;
    base = undefined;
    written = undefined;
    return;
  }
  base ??= document.title;
  written = `(${count}) ${base}`;
  document.title = written;
}

let watching = false;

/** Adds unseen events to the badge; it clears itself when the page is shown again. */
export function addToTitleBadge(events = 1): void {
  if (!watching && typeof document !== "undefined") {
    watching = true;
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState !== "hidden") clearTitleBadge();
    });
  }
  count += events;
  render();
}

/** Clears the badge and restores the page's title. */
export function clearTitleBadge(): void {
  count = 0;
  render();
}

/** The unseen events the badge counts now. */
export function titleBadgeCount(): number {
  return count;
}
