/**
 * Scrolls `scroller` just enough to show `item`, as `scrollIntoView({ block: "nearest" })` does,
 * but nothing around it: scrollIntoView also scrolls every scrolling ancestor (a page's panel
 * would open scrolled down to the element instead of at its top).
 */
export function scrollWithin(scroller: Element, item: Element): void {
  const box = scroller.getBoundingClientRect();
  const row = item.getBoundingClientRect();
  if (row.top < box.top) scroller.scrollTop -= box.top - row.top;
  else if (row.bottom > box.bottom)
    scroller.scrollTop += Math.min(row.bottom - box.bottom, row.top - box.top);
}
