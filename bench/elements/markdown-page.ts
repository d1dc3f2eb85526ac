/** Page side of markdown.bench.ts: times <pi-markdown> rendering, streamed and at once, in Chromium. */
import "@pi-kit/elements/define";
import type { PiMarkdown } from "@pi-kit/elements";

/** Lays the page out as a chat pinned to its newest line would (scrolled to the bottom). */
function layout(): void {
  scrollTo(0, document.body.scrollHeight);
  document.body.getBoundingClientRect();
}

/**
 * Renders `text` into a fresh element, at once or streamed in `deltas` steps, and returns the
 * milliseconds of main-thread work: every update and one layout at the end, plus a layout after
 * each delta when `layoutEach` (as a browser would do once per frame).
 */
async function render(text: string, deltas = 0, layoutEach = false): Promise<number> {
  document.body.replaceChildren();
  const el = document.createElement("pi-markdown") as PiMarkdown;
  el.style.cssText = "display:block;width:760px";
  document.body.append(el);
  await el.updateComplete;
  layout();
  const start = performance.now();
  try {
    if (deltas > 0) {
      el.streaming = true;
      for (let i = 1; i <= deltas; i++) {
        el.text = text.slice(0, Math.round((text.length * i) / deltas));
        await el.updateComplete;
        if (layoutEach) layout();
      }
      el.streaming = false;
    } else {
      el.text = text;
    }
    await el.updateComplete;
    layout();
  } catch (error) {
    console.error(error);
    return Number.NaN;
  }
  return performance.now() - start;
}

Object.assign(window, { render, benchReady: true });
