import { css } from "lit";

/** Styles of the cards, loaded with the first toast (`toast-card.ts`). */
export const cardStyles = css`
  .toast {
    pointer-events: auto;
    display: flex;
    align-items: flex-start;
    gap: 0.5em;
    background: var(--_color-bg);
    color: var(--_color-fg);
    border: 1px solid var(--_color-border);
    border-inline-start: 4px solid var(--_color-accent);
    border-radius: var(--_radius);
    padding: 0.55em 0.5em 0.55em 0.8em;
    box-shadow: 0 4px 16px rgb(0 0 0 / 0.12);
    animation: enter 160ms ease-out;
  }
  .toast.warning {
    border-inline-start-color: var(--_color-warning);
  }
  .toast.error {
    border-inline-start-color: var(--_color-danger);
  }
  .type {
    white-space: nowrap;
  }
  .warning .type {
    color: var(--_color-warning);
  }
  .error .type {
    color: var(--_color-danger);
  }
  .message {
    flex: 1;
    min-width: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .dismiss {
    border: none;
    background: transparent;
    padding: 0 0.4em;
    line-height: 1.4;
    font-size: 1.1em;
    color: var(--_color-muted);
  }
  /* A phone: the newest toast only, on one line (its full text is in its title and read out). */
  @media (max-width: 30rem) {
    .toast:not(.newest) {
      display: none;
    }
    .message {
      white-space: nowrap;
      overflow: hidden;
      text-overflow: ellipsis;
    }
  }
  @keyframes enter {
    from {
      opacity: 0;
      transform: translateY(0.5em);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .toast {
      animation: none;
    }
  }
`;
