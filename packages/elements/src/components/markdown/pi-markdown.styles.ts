import { css } from "lit";

/**
 * What markdown needs before its templates load: the blocks' spacing, the source shown as text, and
 * the caret of a stream (the rest comes with the templates: markdown-content.styles.ts).
 */
export const markdownContentStyles = css`
  .md {
    overflow-wrap: anywhere;
  }
  .md > .block > :first-child {
    margin-top: 0;
  }
  .md > .block:last-child > :last-child {
    margin-bottom: 0;
  }
  .md p,
  .md ul,
  .md ol,
  .md blockquote,
  .md table,
  .md pre {
    margin: 0 0 0.7em;
  }
  /* The caret that follows streaming text. */
  :host([streaming]) .md > .block:last-child > :is(p, ul, ol):last-child::after {
    content: var(--_pi-caret, "▍");
    margin-left: 0.1em;
    color: var(--_color-accent);
    animation: caret 1s step-end infinite;
  }
  /* Opacity, not visibility: the compositor blinks it without restyling the text each time. */
  @keyframes caret {
    50% {
      opacity: 0;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    :host([streaming]) .md > .block:last-child > :last-child::after {
      animation: none;
    }
  }
  .md .source {
    white-space: pre-wrap;
  }
`;

/** Colours of the highlighter's tokens (markdown code blocks, files in tool cards). */
export const syntaxStyles = css`
  .shj-syn-kwd,
  .shj-syn-err {
    color: var(--_syntax-keyword);
  }
  .shj-syn-str,
  .shj-syn-insert {
    color: var(--_syntax-string);
  }
  .shj-syn-num,
  .shj-syn-bool,
  .shj-syn-class {
    color: var(--_syntax-number);
  }
  .shj-syn-cmnt {
    color: var(--_syntax-comment);
    font-style: italic;
  }
  .shj-syn-func,
  .shj-syn-section {
    color: var(--_syntax-function);
  }
  .shj-syn-type,
  .shj-syn-oper,
  .shj-syn-var {
    color: var(--_syntax-type);
  }
  .shj-syn-deleted {
    color: var(--_color-danger);
  }
`;
