/** Page side of the bridge benchmarks: what a page shows, as text. */

/** All text under `root`, through shadow roots. */
export function deepText(root: Node): string {
  let text = "";
  const walk = (node: Node): void => {
    if (node.nodeType === Node.TEXT_NODE) text += node.textContent;
    const shadow = (node as Element).shadowRoot;
    if (shadow) for (const child of shadow.childNodes) walk(child);
    for (const child of node.childNodes) walk(child);
  };
  walk(root);
  return text;
}

/** Resolves after the next frame is painted. */
export const frame = (): Promise<void> => new Promise((r) => requestAnimationFrame(() => r()));
