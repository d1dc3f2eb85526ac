import { css } from "lit";

/** Styles of `<pi-chat>`. */
export const chatStyles = css`
  :host {
    --max-width: 52rem;
    display: flex;
    flex-direction: column;
    height: 100%;
    min-height: 16rem;
    background: var(--_color-bg);
    color: var(--_color-fg);
    position: relative;
  }
  /* A run the chat cannot follow (its socket is down) does not look live: no caret. */
  :host(:not(:state(running))) {
    --_pi-caret: none;
  }
  .header {
    display: flex;
    align-items: center;
    gap: var(--_space);
    padding: 0 var(--_space);
  }
  .title {
    font-size: 1em;
    margin: 0.5em 0 0;
  }
  /* One line at any width (a phone's too): what does not fit scrolls sideways, never wraps. */
  .status-bar {
    display: flex;
    white-space: nowrap;
    overflow-x: auto;
    scrollbar-width: none;
    gap: 0.3em 0.9em;
    align-items: center;
    padding: 0.35em var(--_space);
    font-size: 0.8em;
    color: var(--_color-muted);
    border-bottom: 1px solid var(--_color-border);
  }
  .status-bar > * {
    flex: none;
  }
  .status-bar .spacer {
    flex: 1;
  }
  /* On a phone the tokens and cost give way (pi-session-stats has them): the line stays whole. */
  @media (max-width: 30rem) {
    .status-bar .usage {
      display: none;
    }
  }
  .conn .dot {
    display: inline-block;
    width: 0.55em;
    height: 0.55em;
    border-radius: 50%;
    margin-right: 0.35em;
    background: var(--_color-muted);
  }
  .conn.connected .dot {
    background: var(--_color-success);
  }
  .conn.disconnected .dot {
    background: var(--_color-danger);
  }
  .conn.connecting .dot,
  .conn.reconnecting .dot {
    background: var(--_color-warning);
  }
  .status-bar .notify {
    /* WCAG 2.2 target size. */
    min-height: 24px;
    display: inline-flex;
    align-items: center;
    gap: 0.3em;
    font-size: 1em;
    padding: 0.1em 0.5em;
    color: var(--_color-fg);
  }
  .status-bar .warn {
    color: var(--_color-warning);
  }
  .log-wrap {
    position: relative;
    flex: 1;
    min-height: 0;
  }
  .log {
    height: 100%;
    overflow-y: auto;
    /* The space a new turn lands with may bring the scrollbar: it must not shift the column. */
    scrollbar-gutter: stable both-edges;
    overscroll-behavior: contain;
    padding: var(--_space);
  }
  .column,
  .bottom {
    max-width: var(--max-width);
    margin: 0 auto;
  }
  .bottom {
    width: 100%;
    /* The padding is added to the column width, so the composer lines up with the transcript. */
    max-width: calc(var(--max-width) + 2 * var(--_space));
    padding: 0 var(--_space) var(--_space);
  }
  .jump {
    position: absolute;
    bottom: 0.8em;
    left: 50%;
    transform: translateX(-50%);
    border-radius: 999px;
    background: var(--_color-bg);
    box-shadow: 0 2px 8px rgb(0 0 0 / 0.15);
  }
  /* Notifications sit in the column above the composer, at its end, pushing nothing over text. */
  pi-toasts {
    --position: static;
    margin-inline-start: auto;
    max-width: 100%;
  }
  pi-toasts:has(+ *) {
    margin-bottom: 0.5em;
  }
  pi-dialog {
    margin-bottom: 0.5em;
    /* With the composer under it, the dialog leaves the conversation room to be read. */
    --max-panel-height: 40dvh;
  }
  .widget {
    font-family: var(--_font-mono);
    font-size: 0.85em;
    color: var(--_color-muted);
    white-space: pre-wrap;
    padding: 0.2em 0.4em;
    margin-bottom: 0.3em;
  }
  /* A message sent before the chat was connected: the user's bubble, marked as not sent yet. */
  .pending-message {
    display: flex;
    flex-direction: column;
    align-items: flex-end;
  }
  .pending-message pi-message {
    /* Full width, as in the transcript: the bubble aligns itself and wraps at the same width. */
    align-self: stretch;
    opacity: 0.75;
  }
  .pending-note,
  .progress {
    font-size: 0.85em;
    color: var(--_color-muted);
  }
  .progress:empty {
    display: none;
  }
  .progress {
    display: flex;
    align-items: center;
    gap: 0.5em;
    padding: 0.35em 0;
  }
  .spinner {
    flex: none;
    width: 0.9em;
    height: 0.9em;
    border-radius: 50%;
    border: 2px solid var(--_color-border);
    border-top-color: var(--_color-accent);
    animation: spin 0.9s linear infinite;
  }
  @keyframes spin {
    to {
      transform: rotate(1turn);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation: none;
      border-color: var(--_color-accent);
    }
  }
`;
