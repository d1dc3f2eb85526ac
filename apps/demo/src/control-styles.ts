import { css } from "lit";

/**
 * The shell's controls: one style for every button and field, the icon buttons and text buttons
 * of the bars, icons, and the π logo, from the pi elements' tokens.
 */
export const controlStyles = css`
  button,
  input {
    font: inherit;
    color: inherit;
  }
  button {
    display: inline-flex;
    align-items: center;
    gap: 0.4em;
    cursor: pointer;
    border: 1px solid var(--_color-border);
    background: var(--_color-surface);
    border-radius: calc(var(--_radius) * 0.75);
    padding: 0.35em 0.8em;
    white-space: nowrap;
  }
  button:hover {
    border-color: var(--_color-accent);
  }
  button.primary {
    background: var(--_color-accent);
    border-color: var(--_color-accent);
    color: var(--_color-accent-fg);
  }
  .icon-button {
    justify-content: center;
    width: 2.25rem;
    height: 2.25rem;
    padding: 0;
    border-color: transparent;
    background: transparent;
    color: var(--_color-muted);
    flex: none;
  }
  .icon-button:hover {
    color: var(--_color-fg);
    background: var(--_color-surface);
    border-color: var(--_color-border);
  }
  .icon-button.small {
    width: 1.75rem;
    height: 1.75rem;
  }
  .text-button {
    height: 2.25rem;
    min-width: 2.25rem;
    justify-content: center;
    padding: 0 0.5em;
    border-color: transparent;
    background: transparent;
    color: var(--_color-muted);
    font-size: 0.9em;
    font-weight: 600;
  }
  .text-button:hover {
    color: var(--_color-fg);
    background: var(--_color-surface);
  }
  .icon {
    display: inline-flex;
    flex: none;
  }
  .icon svg {
    width: 1.15rem;
    height: 1.15rem;
  }
  .icon-button.small .icon svg {
    width: 0.95rem;
    height: 0.95rem;
  }
  .logo {
    display: inline-grid;
    place-items: center;
    flex: none;
    width: 1.75rem;
    height: 1.75rem;
    border-radius: calc(var(--_radius) * 0.75);
    background: var(--_color-accent);
    color: var(--_color-accent-fg);
    font-weight: 700;
    font-family: Georgia, "Times New Roman", serif;
  }
  .logo.large {
    width: 3rem;
    height: 3rem;
    font-size: 1.6rem;
    border-radius: var(--_radius);
  }
`;
