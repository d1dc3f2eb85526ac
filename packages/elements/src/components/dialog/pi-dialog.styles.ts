import { css } from "lit";

/** Styles of `<pi-dialog>`: a docked card, not an overlay, so the transcript stays visible. */
export const dialogStyles = css`
  :host {
    display: block;
  }
  .panel {
    background: var(--_color-bg);
    border: 1px solid var(--_color-border);
    border-inline-start: 3px solid var(--_color-accent);
    border-radius: var(--_radius);
    padding: var(--_space);
    display: flex;
    flex-direction: column;
    gap: 0.6em;
    box-shadow: 0 2px 10px rgb(0 0 0 / 0.08);
    /* At most half the screen, so the conversation stays in view; the options scroll inside. */
    max-height: var(--max-panel-height, 50vh);
    max-height: var(--max-panel-height, 50dvh);
    overflow-y: auto;
  }
  .panel > * {
    flex: none;
  }
  .panel > .listbox,
  .panel > .message,
  .panel > textarea.field {
    flex: 0 1 auto;
    min-height: 3.2em;
    overflow-y: auto;
  }
  .panel > .message {
    min-height: 1.6em;
  }
  .header {
    display: flex;
    align-items: baseline;
    gap: 0.75em;
    flex-wrap: wrap;
  }
  .title {
    margin: 0;
    font-size: 1em;
    font-weight: 600;
    flex: 1;
    /* A question may carry its details on lines of their own (a command, a diff). */
    white-space: pre-line;
    min-width: 10em;
    overflow-wrap: anywhere;
  }
  .counter,
  .countdown,
  .hint {
    color: var(--_color-muted);
    font-size: 0.85em;
    white-space: nowrap;
    font-variant-numeric: tabular-nums;
  }
  .countdown.urgent {
    color: var(--_color-warning);
    font-weight: 600;
  }
  .bar {
    height: 3px;
    background: var(--_color-surface);
    border-radius: 2px;
    overflow: hidden;
    margin-top: -0.3em;
  }
  .bar > div {
    height: 100%;
    background: var(--_color-accent);
    transform-origin: left;
    transition: transform 1s linear;
  }
  :host(:dir(rtl)) .bar > div {
    transform-origin: right;
  }
  .message {
    margin: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .field {
    font: inherit;
    color: inherit;
    background: var(--_color-bg);
    border: 1px solid var(--_color-border);
    border-radius: calc(var(--_radius) * 0.75);
    padding: 0.4em 0.6em;
    width: 100%;
  }
  textarea.field {
    font-family: var(--_font-mono);
    font-size: 0.9em;
    resize: vertical;
    max-height: var(--max-height, 16rem);
  }
  .actions {
    display: flex;
    gap: 0.5em;
    align-items: center;
    justify-content: flex-end;
    flex-wrap: wrap;
  }
  .actions .hint {
    margin-inline-end: auto;
    white-space: normal;
  }
  @media (prefers-reduced-motion: reduce) {
    .bar > div {
      transition: none;
    }
  }
  .watched {
    margin: 0;
    padding: 0;
    list-style: none;
  }
  .watched .option {
    cursor: default;
  }
`;
