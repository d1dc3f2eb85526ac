/**
 * Small line icons (24-unit grid, 1em square, drawn in `currentColor`), decorative only: every
 * button that shows one also has a text label or an `aria-label`. Each is a function of its own,
 * so a page's bundle holds only the icons its elements show (`import * as icons`).
 */
import { svg, type TemplateResult } from "lit";

const icon = (body: TemplateResult<2>): TemplateResult<2> =>
  svg`<svg class="icon-svg" viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`;

/** A plus: something new. */
export const plus = (): TemplateResult<2> => icon(svg`<path d="M12 5v14M5 12h14"/>`);
/** A pencil: rename. */
export const pencil = (): TemplateResult<2> =>
  icon(svg`<path d="M4 20h4L19 9l-4-4L4 16v4z"/><path d="M13.5 6.5l4 4"/>`);
/** A bin: delete. */
export const trash = (): TemplateResult<2> =>
  icon(svg`<path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3"/>`);
/** A warning triangle. */
export const warning = (): TemplateResult<2> =>
  icon(svg`<path d="M12 3L2 20h20L12 3z"/><path d="M12 10v4M12 17.5v.01"/>`);
/** A bell: notifications. */
export const bell = (): TemplateResult<2> =>
  icon(svg`<path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4l2-2z"/><path d="M10 21h4"/>`);
