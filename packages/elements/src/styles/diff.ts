import { css } from "lit";

/** Look of a unified diff's table (`components/chat/tool-views/diff-table.ts`) and its "show all". */
export const diffStyles = css`
  .rows {
    font-family: var(--_font-mono);
    font-size: 0.85em;
    overflow: auto;
    max-height: 30em;
    line-height: 1.45;
  }
  .row {
    display: grid;
    grid-template-columns: auto auto 1.2em 1fr;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .num {
    color: var(--_color-muted);
    text-align: right;
    padding-right: 0.6em;
    min-width: 2.5em;
    user-select: none;
  }
  .add {
    background: color-mix(in srgb, var(--_color-success) 14%, transparent);
  }
  .del {
    background: color-mix(in srgb, var(--_color-danger) 14%, transparent);
  }
  .gap {
    color: var(--_color-muted);
  }
  .added {
    color: var(--_color-success);
  }
  .removed {
    color: var(--_color-danger);
  }
  .show-all {
    margin-top: 0.3em;
    font-size: 0.85em;
    padding: 0.1em 0.6em;
  }
`;
