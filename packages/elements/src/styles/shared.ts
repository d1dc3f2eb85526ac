import { css } from "lit";

/** Base rules shared by every element: box sizing, focus ring, visually hidden text, buttons. */
export const baseStyles = css`
  :host {
    box-sizing: border-box;
    font-family: var(--_font-family);
    font-size: var(--_font-size);
    line-height: var(--_line-height);
    color: var(--_color-fg);
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  :focus-visible {
    outline: var(--_focus-ring);
    outline-offset: 2px;
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    padding: 0;
    margin: -1px;
    overflow: hidden;
    clip: rect(0, 0, 0, 0);
    white-space: nowrap;
    border: 0;
  }
  button {
    font: inherit;
    color: inherit;
    cursor: pointer;
    border: 1px solid var(--_color-border);
    background: var(--_color-surface);
    border-radius: calc(var(--_radius) * 0.75);
    padding: 0.3em 0.8em;
  }
  button:hover:not(:disabled) {
    border-color: var(--_color-accent);
  }
  button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
  button.primary {
    background: var(--_color-accent);
    border-color: var(--_color-accent);
    color: var(--_color-accent-fg);
  }
  button.danger {
    color: var(--_color-danger);
  }
  pre,
  code {
    font-family: var(--_font-mono);
    font-size: 0.9em;
  }
`;
