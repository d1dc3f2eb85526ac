/** Highlights the code elements under a root once the (lazily loaded) highlighter is there. */
export function highlightLater(root: ParentNode): void {
  const codes = root.querySelectorAll<HTMLElement>("code[data-lang]:not([data-hl])");
  if (codes.length > 0)
    void import("./highlight.ts").then(({ highlightElement }) => codes.forEach(highlightElement));
}
