import { css } from "lit";

/**
 * Styles of `<pi-slash-menu>`. The host decides where the popup goes (a composer puts it right
 * above its text field); the element only draws the card.
 */
export const slashMenuStyles = css`
  :host {
    display: block;
  }
  .popup {
    margin: 0;
    box-shadow: 0 4px 16px rgb(0 0 0 / 0.12);
  }
  p.popup {
    background: var(--_color-bg);
    border: 1px solid var(--_color-border);
    border-radius: calc(var(--_radius) * 0.75);
    padding: 0.4em 0.7em;
  }
  .option {
    display: flex;
    align-items: baseline;
    gap: 0.6em;
    min-width: 0;
  }
  .name {
    /* Most names fit, so descriptions start in one column. */
    min-width: 9em;
    font-family: var(--_font-mono);
    font-size: 0.9em;
    font-weight: 600;
    white-space: nowrap;
  }
  .description {
    flex: 1;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    opacity: 0.85;
  }
  .source {
    margin-inline-start: auto;
    font-size: 0.75em;
    opacity: 0.75;
    white-space: nowrap;
  }
`;
