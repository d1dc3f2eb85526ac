import { css } from "lit";

/** Styles of `<pi-message>`. */
export const messageStyles = css`
  :host {
    display: block;
    padding: 0.35em 0;
    /* Off-screen messages skip layout and paint; long transcripts stay cheap to scroll. */
    content-visibility: auto;
    contain-intrinsic-size: auto 4em;
  }
  :host([role-name="user"]) {
    display: flex;
    flex-direction: column;
    align-items: flex-end;
  }
  .actions {
    display: flex;
    gap: 0.2em;
    align-items: center;
    margin-top: 0.1em;
    color: var(--_color-muted);
    font-size: 0.8em;
    opacity: 0;
    transition: opacity 0.15s;
  }
  :host(:hover) .actions,
  .actions:focus-within {
    opacity: 1;
  }
  @media (hover: none) {
    .actions {
      opacity: 1;
    }
  }
  .action {
    border-color: transparent;
    background: none;
    padding: 0.1em 0.5em;
    /* WCAG 2.2 target size. */
    min-height: 24px;
  }
  .action[data-copied] > span {
    display: none;
  }
  .action[data-copied]::after {
    content: attr(data-done);
    color: var(--_color-success);
  }
  time {
    padding: 0 0.4em;
  }
  .pending {
    color: var(--_color-muted);
    animation: pulse 1.4s ease-in-out infinite;
  }
  @keyframes pulse {
    50% {
      opacity: 0.45;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .pending {
      animation: none;
    }
  }
  .bubble.user {
    background: var(--_color-user);
    border-radius: var(--_radius);
    padding: 0.5em 0.8em;
    max-width: min(85%, 46em);
  }
  .plain {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .muted {
    color: var(--_color-muted);
  }
  .mono {
    font-family: var(--_font-mono);
    font-size: 0.9em;
  }
  .images {
    display: flex;
    flex-wrap: wrap;
    gap: 0.4em;
    margin-top: 0.4em;
  }
  .images img {
    max-height: 10em;
    max-width: 100%;
    border-radius: calc(var(--_radius) * 0.5);
  }
  details.thinking {
    margin: 0.3em 0;
    color: var(--_color-muted);
  }
  details.thinking summary {
    cursor: pointer;
    font-size: 0.9em;
  }
  details.thinking .plain {
    border-left: 2px solid var(--_color-border);
    padding-left: 0.7em;
    margin-top: 0.3em;
    font-size: 0.92em;
  }
  .error {
    color: var(--_color-danger);
    border: 1px solid var(--_color-danger);
    border-radius: var(--_radius);
    padding: 0.4em 0.7em;
    margin-top: 0.4em;
  }
  .aborted {
    color: var(--_color-warning);
    font-size: 0.9em;
    margin-top: 0.3em;
  }
  .notice {
    color: var(--_color-muted);
    font-size: 0.9em;
    border-left: 3px solid var(--_color-border);
    padding: 0.2em 0.7em;
  }
  .notice summary {
    cursor: pointer;
  }
  .notice pi-markdown {
    color: var(--_color-fg);
  }
  .notice.error {
    border-left-color: var(--_color-danger);
  }
  .bash {
    border: 1px solid var(--_color-border);
    border-radius: var(--_radius);
    background: var(--_color-code-bg);
    padding: 0.4em 0.7em;
  }
  .bash.error {
    border-color: var(--_color-danger);
  }
  pre.output {
    margin: 0.3em 0 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    max-height: 24em;
    overflow: auto;
    font-family: var(--_font-mono);
    font-size: 0.85em;
  }
`;
