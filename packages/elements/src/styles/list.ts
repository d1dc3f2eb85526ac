import { css } from "lit";

/**
 * Shared look of listbox-like lists (dialog select, fork picker, slash menu, session tree): a
 * bordered scrolling box whose highlighted row uses the accent colour.
 */
export const listStyles = css`
  .listbox {
    max-height: var(--max-height, 16rem);
    overflow: auto;
    border: 1px solid var(--_color-border);
    border-radius: calc(var(--_radius) * 0.75);
    padding: 0.2em;
    background: var(--_color-bg);
  }
  .option {
    padding: 0.3em 0.6em;
    border-radius: calc(var(--_radius) * 0.5);
    cursor: pointer;
    overflow-wrap: anywhere;
  }
  .option:hover {
    background: var(--_color-surface);
  }
  .option[aria-selected="true"] {
    background: var(--_color-accent);
    color: var(--_color-accent-fg);
  }
  .hint,
  .empty {
    color: var(--_color-muted);
    font-size: 0.85em;
    margin: 0.3em 0 0;
  }
`;
