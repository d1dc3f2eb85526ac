import { html, nothing, type TemplateResult } from "lit";
import { format } from "../../../internal/i18n/format.ts";
import type { PiStrings } from "../../../internal/i18n/i18n.ts";

/** Lines of finished output shown before "show all". */
export const CLIP_LINES = 8;

/** How a long block of rows is shown: clipped, or all of it after "show all". */
export interface ClipState {
  readonly expanded: boolean;
  readonly toggle: () => void;
  readonly strings: PiStrings;
}

/**
 * The rows to show (the first {@link CLIP_LINES}, or the last with `tail`, for output whose end
 * matters most) and the button that shows all of them or clips them again.
 */
export function clipRows<T>(
  rows: readonly T[],
  state: ClipState,
  tail = false,
): { shown: readonly T[]; toggle: TemplateResult | typeof nothing } {
  if (rows.length <= CLIP_LINES + 2) return { shown: rows, toggle: nothing };
  const s = state.strings;
  const shown = state.expanded ? rows : tail ? rows.slice(-CLIP_LINES) : rows.slice(0, CLIP_LINES);
  return {
    shown,
    toggle: html`<button type="button" class="show-all" part="show-all" aria-expanded=${state.expanded ? "true" : "false"} @click=${state.toggle}>${
      state.expanded ? s.showLess : format(s.showAll, { count: rows.length })
    }</button>`,
  };
}
