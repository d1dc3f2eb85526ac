import { css } from "lit";

/** Shared look of the small select-based pickers (model, thinking level): label, select, status. */
export const pickerStyles = css`
  :host {
    display: inline-flex;
    align-items: center;
    gap: 0.4em;
    flex-wrap: wrap;
  }
  .label {
    font-size: 0.85em;
    color: var(--_color-muted);
  }
  select {
    font: inherit;
    font-size: 0.9em;
    color: var(--_color-fg);
    background: var(--_color-surface);
    border: 1px solid var(--_color-border);
    border-radius: calc(var(--_radius) * 0.75);
    padding: 0.25em 0.5em;
    max-width: var(--max-width, 18rem);
  }
  select:hover:not(:disabled) {
    border-color: var(--_color-accent);
  }
  select:disabled {
    opacity: 0.6;
    cursor: not-allowed;
  }
  .status {
    font-size: 0.8em;
    color: var(--_color-muted);
  }
  .status.error {
    color: var(--_color-danger);
  }
`;
