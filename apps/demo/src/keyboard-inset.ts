/**
 * Follows the on-screen keyboard: phones lay the page out under it (it shrinks only the visual
 * viewport), so the shell sizes itself to what stays visible, `--keyboard-inset` shorter, and the
 * composer stays above the keyboard.
 */

/** Keeps `--keyboard-inset` on `root` current (in px); returns what stops it. */
export function followKeyboard(root: HTMLElement): () => void {
  const viewport = window.visualViewport;
  if (viewport === null) return () => {};
  const update = () => {
    // A pinch zoom shrinks the visual viewport too: that is no keyboard.
    const covered =
      viewport.scale > 1.01 ? 0 : window.innerHeight - viewport.height - viewport.offsetTop;
    root.style.setProperty("--keyboard-inset", `${Math.max(0, Math.round(covered))}px`);
  };
  viewport.addEventListener("resize", update);
  viewport.addEventListener("scroll", update);
  update();
  return () => {
    viewport.removeEventListener("resize", update);
    viewport.removeEventListener("scroll", update);
  };
}
