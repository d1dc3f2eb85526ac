import { css } from "lit";

/** Styles of `<pi-session-stats>`: a compact two-column list. */
export const statsStyles = css`
  :host {
    display: block;
    font-size: 0.9em;
  }
  dl {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: 0.25em 1em;
    margin: 0 0 0.5em;
  }
  .row {
    display: contents;
  }
  dt {
    color: var(--_color-muted);
  }
  dd {
    margin: 0;
    font-variant-numeric: tabular-nums;
    display: flex;
    align-items: center;
    gap: 0.5em;
  }
  meter {
    width: 6em;
    height: 0.6em;
    appearance: none;
  }
  meter::-webkit-meter-bar {
    background: var(--_color-surface);
    border: 1px solid var(--_color-border);
    border-radius: 0.3em;
  }
  meter::-webkit-meter-optimum-value {
    background: var(--_color-accent);
  }
  meter::-webkit-meter-suboptimum-value {
    background: var(--_color-warning);
  }
  meter::-webkit-meter-even-less-good-value {
    background: var(--_color-danger);
  }
  meter::-moz-meter-bar {
    background: var(--_color-accent);
  }
  .empty {
    color: var(--_color-muted);
    margin: 0 0 0.5em;
  }
  .refresh {
    font-size: 0.85em;
  }
`;
