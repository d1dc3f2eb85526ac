import { css } from "lit";

/** Typography of rendered markdown, adopted by `<pi-markdown>` when its templates load. */
export const markdownTemplateStyles = css`
  .md h1,
  .md h2,
  .md h3,
  .md h4 {
    line-height: 1.25;
    margin: 1em 0 0.5em;
  }
  .md h1 {
    font-size: 1.35em;
  }
  .md h2 {
    font-size: 1.2em;
  }
  .md h3,
  .md h4 {
    font-size: 1.05em;
  }
  .md a {
    color: var(--_color-accent);
  }
  .md code {
    background: var(--_color-code-bg);
    border-radius: 0.25em;
    padding: 0.1em 0.3em;
  }
  /* A list split into one block per item (for streaming) reads as one list. */
  .md > .list > :is(ul, ol) {
    margin-bottom: 0;
  }
  .md > .list + .block:not(.list) {
    margin-top: 0.7em;
  }
  .md .code {
    border: 1px solid var(--_color-border);
    border-radius: var(--_radius);
    margin: 0 0 0.7em;
    overflow: hidden;
  }
  .md .code-head {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 0.5em;
    padding: 0.15em 0.3em 0.15em 0.9em;
    border-bottom: 1px solid var(--_color-border);
    background: var(--_color-surface);
    color: var(--_color-muted);
    font-size: 0.8em;
  }
  .md .lang {
    font-family: var(--_font-mono);
  }
  button.copy {
    border-color: transparent;
    background: none;
    padding: 0.1em 0.5em;
    font-size: 0.95em;
  }
  button[data-copied] > span {
    display: none;
  }
  button[data-copied]::after {
    content: attr(data-done);
    color: var(--_color-success);
  }
  .md pre {
    background: var(--_color-code-bg);
    padding: 0.7em 0.9em;
    overflow-x: auto;
    line-height: 1.45;
    /* A growing block reflows on its own. */
    contain: content;
  }
  .md .code pre {
    margin: 0;
  }
  .md .piece {
    display: block;
  }
  .md .piece + .piece {
    margin-top: 0.7em;
  }
  .md .too-deep {
    white-space: pre-wrap;
    color: var(--_color-muted);
  }
  .md pre code {
    background: none;
    padding: 0;
    white-space: pre;
  }
  .md blockquote {
    border-left: 3px solid var(--_color-border);
    padding-left: 0.8em;
    color: var(--_color-muted);
  }
  .md table {
    display: block;
    overflow-x: auto;
    border-collapse: collapse;
  }
  .md th,
  .md td {
    border: 1px solid var(--_color-border);
    padding: 0.25em 0.6em;
  }
  .md hr {
    border: 0;
    border-top: 1px solid var(--_color-border);
  }
`;
