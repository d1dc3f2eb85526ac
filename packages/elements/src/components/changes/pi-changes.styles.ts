import { css } from "lit";

/** Styles of `<pi-changes>` (its diffs: `styles/diff.ts`; its confirmation: `styles/confirm.ts`). */
export const changesStyles = css`
  :host {
    display: block;
    min-width: 0;
    max-height: var(--max-height, none);
    overflow: auto;
  }
  .header {
    display: flex;
    align-items: center;
    gap: 0.6em;
  }
  .summary {
    flex: 1;
    margin: 0;
    font-size: 0.9em;
  }
  .refresh {
    font-size: 0.85em;
    padding: 0.15em 0.6em;
  }
  .muted,
  .note {
    color: var(--_color-muted);
    font-size: 0.85em;
  }
  .note:empty {
    display: none;
  }
  .lock-note {
    margin: 0.4em 0 0;
  }
  .error {
    color: var(--_color-danger);
    font-size: 0.85em;
    overflow-wrap: anywhere;
  }
  .files,
  .runs {
    list-style: none;
    margin: 0.5em 0 0;
    padding: 0;
    border: 1px solid var(--_color-border);
    border-radius: calc(var(--_radius) * 0.75);
    background: var(--_color-bg);
  }
  .file,
  .run {
    padding: 0.35em 0.5em;
  }
  .file + .file,
  .run + .run {
    border-top: 1px solid var(--_color-border);
  }
  .file-row,
  .run-row {
    display: flex;
    align-items: center;
    gap: 0.5em;
    min-width: 0;
  }
  .file-button {
    flex: 1;
    min-width: 0;
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 0.2em 0.5em;
    text-align: start;
    border: 0;
    background: none;
    padding: 0.15em 0.2em;
  }
  .chevron {
    color: var(--_color-muted);
    width: 0.8em;
  }
  .badge {
    font-size: 0.75em;
    font-weight: 600;
    padding: 0 0.45em;
    border-radius: 999px;
    border: 1px solid currentColor;
    white-space: nowrap;
  }
  .badge.added {
    color: var(--_color-success);
  }
  .badge.modified {
    color: var(--_color-accent);
  }
  .badge.deleted {
    color: var(--_color-danger);
  }
  .badge.renamed {
    color: var(--_color-warning);
  }
  .path {
    font-family: var(--_font-mono);
    font-size: 0.85em;
    overflow-wrap: anywhere;
    min-width: 0;
  }
  .from {
    color: var(--_color-muted);
  }
  .counts {
    font-family: var(--_font-mono);
    font-size: 0.8em;
    white-space: nowrap;
  }
  .binary {
    color: var(--_color-muted);
  }
  .revert,
  .undo {
    font-size: 0.8em;
    padding: 0.15em 0.6em;
    white-space: nowrap;
  }
  .diff-region {
    margin-top: 0.35em;
  }
  .runs-title {
    font-size: 0.85em;
    font-weight: 600;
    margin: 0.9em 0 0;
  }
  .run-text {
    flex: 1;
    min-width: 0;
    display: flex;
    flex-direction: column;
  }
  .run-label {
    overflow-wrap: anywhere;
    font-size: 0.9em;
  }
  .skipped {
    margin: 0.4em 0 0;
    overflow-wrap: anywhere;
  }
`;
