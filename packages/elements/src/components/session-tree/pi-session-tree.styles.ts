import { css } from "lit";

/** Styles of `<pi-session-tree>` (rows reuse the shared list styles). */
export const treeStyles = css`
  :host {
    display: block;
    font-size: 0.9em;
  }
  .tree {
    max-height: var(--max-height, 24rem);
  }
  .item {
    display: flex;
    align-items: baseline;
    gap: 0.5em;
    padding-inline-start: calc(0.3em + var(--level, 0) * var(--indent, 1.1em));
    white-space: nowrap;
    min-width: 0;
  }
  .toggle {
    width: 0.9em;
    flex: none;
    text-align: center;
    color: var(--_color-muted);
  }
  .kind {
    flex: none;
    font-weight: 600;
    font-size: 0.85em;
  }
  .text {
    overflow: hidden;
    text-overflow: ellipsis;
    min-width: 0;
    flex: 1;
  }
  .tag {
    flex: none;
    font-size: 0.75em;
    border: 1px solid currentColor;
    border-radius: 1em;
    padding: 0 0.5em;
  }
  .current {
    color: var(--_color-success);
  }
  [aria-selected="true"] .toggle,
  [aria-selected="true"] .current {
    color: inherit;
  }
  .internal-toggle {
    /* WCAG 2.2 target size: the label is the target. */
    min-height: 24px;
    display: inline-flex;
    align-items: center;
    gap: 0.4em;
    font-size: 0.85em;
    color: var(--_color-muted);
    margin-bottom: 0.35em;
    cursor: pointer;
  }
  .internal-toggle input {
    margin: 0;
    accent-color: var(--_color-accent);
  }
  /* Always there (a live region added with its text is often not announced), empty most of the time. */
  .note {
    color: var(--_color-muted);
    font-size: 0.85em;
    margin: 0;
  }
  .note:not(:empty) {
    margin-top: 0.3em;
  }
  .versions {
    margin-top: 0.6em;
    padding-top: 0.5em;
    border-top: 1px solid var(--_color-border);
  }
  .versions-title {
    margin: 0 0 0.3em;
    font-size: 0.85em;
    font-weight: 600;
    color: var(--_color-muted);
  }
  .versions ul {
    list-style: none;
    margin: 0;
    padding: 0;
    display: flex;
    flex-direction: column;
    gap: 0.25em;
  }
  .version {
    display: flex;
    align-items: baseline;
    gap: 0.5em;
    width: 100%;
    min-width: 0;
    text-align: start;
  }
  .version .count {
    flex: none;
    font-size: 0.85em;
    color: var(--_color-muted);
  }
`;
