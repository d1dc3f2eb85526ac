import { css } from "lit";

/** Styles of `<pi-tool-call>` (its diffs: `styles/diff.ts`). */
export const toolCallStyles = css`
  :host {
    display: block;
    min-width: 0;
  }
  details {
    border: 1px solid var(--_color-border);
    border-radius: var(--_radius);
    background: var(--_color-surface);
    margin: 0.4em 0;
  }
  details.error {
    border-color: var(--_color-danger);
  }
  /* Stopped, not failed: no alarm colour, a dashed edge says it never finished. */
  details.aborted {
    border-style: dashed;
  }
  summary {
    display: flex;
    gap: 0.6em;
    align-items: baseline;
    padding: 0.35em 0.7em;
    cursor: pointer;
    font-size: 0.9em;
    min-width: 0;
  }
  .name {
    font-weight: 600;
    font-family: var(--_font-mono);
  }
  .summary {
    font-family: var(--_font-mono);
    color: var(--_color-muted);
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    flex: 1;
    min-width: 0;
  }
  .status {
    color: var(--_color-muted);
    white-space: nowrap;
  }
  .error .status {
    color: var(--_color-danger);
  }
  .awaiting {
    border-color: var(--_color-warning);
  }
  .awaiting .status {
    color: var(--_color-warning);
    font-weight: 600;
  }
  pi-dialog {
    display: block;
    padding: 0 0.5em 0.5em;
  }
  .done .status {
    color: var(--_color-success);
  }
  .section {
    border-top: 1px solid var(--_color-border);
    padding: 0.4em 0.7em;
  }
  .label {
    font-size: 0.8em;
    color: var(--_color-muted);
    margin-bottom: 0.2em;
  }
  pre {
    margin: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    max-height: 24em;
    overflow: auto;
  }
  img {
    max-width: 100%;
    max-height: 20em;
    margin-top: 0.4em;
  }
`;
