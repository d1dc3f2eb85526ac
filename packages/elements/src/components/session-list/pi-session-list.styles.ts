import { css } from "lit";

/** Styles of `<pi-session-list>`: a sidebar that fills its container and scrolls its rows. */
export const sessionListStyles = css`
  :host {
    display: flex;
    flex-direction: column;
    min-height: 0;
    min-width: 0;
    height: 100%;
    gap: 0.5em;
  }
  .header {
    display: flex;
    flex-direction: column;
    gap: 0.5em;
  }
  .new {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 0.4em;
    padding-block: 0.45em;
  }
  .filter {
    font: inherit;
    color: inherit;
    width: 100%;
    min-width: 0;
    background: var(--_color-bg);
    border: 1px solid var(--_color-border);
    border-radius: calc(var(--_radius) * 0.75);
    padding: 0.35em 0.6em;
  }
  .filter::placeholder {
    color: var(--_color-muted);
    opacity: 1;
  }
  .filter:focus-visible {
    outline: var(--_focus-ring);
    outline-offset: 0;
  }
  .scroller {
    flex: 1;
    min-height: 0;
    overflow-y: auto;
    overscroll-behavior: contain;
  }
  .list {
    list-style: none;
    margin: 0;
    padding: 0;
    display: flex;
    flex-direction: column;
    gap: 1px;
  }
  .item {
    position: relative;
    border-radius: calc(var(--_radius) * 0.75);
    /* Thousands of rows: the browser skips laying out the ones scrolled away. */
    content-visibility: auto;
    contain-intrinsic-size: auto 3.4em;
  }
  .item:hover,
  .item:focus-within {
    background: var(--_color-surface);
  }
  .item.selected {
    background: var(--_color-surface);
    box-shadow: inset 3px 0 0 var(--_color-accent);
  }
  :host(:dir(rtl)) .item.selected {
    box-shadow: inset -3px 0 0 var(--_color-accent);
  }
  .open {
    display: flex;
    flex-direction: column;
    align-items: stretch;
    gap: 0.1em;
    width: 100%;
    min-width: 0;
    text-align: start;
    border: 0;
    background: transparent;
    padding: 0.45em 0.6em;
    border-radius: inherit;
  }
  /* Room for the row's buttons where they show (over the row's end). */
  .item:hover .open,
  .item:focus-within .open {
    padding-inline-end: 4.6em;
  }
  .open:focus-visible {
    outline-offset: -2px;
  }
  .heading {
    display: flex;
    align-items: baseline;
    gap: 0.4em;
    min-width: 0;
  }
  .title {
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .selected .title {
    font-weight: 600;
  }
  .meta {
    display: flex;
    align-items: center;
    gap: 0.5em;
    font-size: 0.8em;
    color: var(--_color-muted);
    min-width: 0;
  }
  .badge {
    display: inline-flex;
    align-items: center;
    gap: 0.3em;
    color: var(--_color-success);
    font-weight: 600;
  }
  .badge::before {
    content: "";
    width: 0.55em;
    height: 0.55em;
    border-radius: 50%;
    background: currentColor;
    animation: pulse 1.6s ease-in-out infinite;
  }
  .damaged-reason {
    display: flex;
    align-items: flex-start;
    gap: 0.3em;
    font-size: 0.8em;
    color: var(--_color-warning);
    overflow-wrap: anywhere;
  }
  .damaged-reason .icon-svg {
    flex: none;
    margin-top: 0.2em;
  }
  .actions {
    position: absolute;
    inset-inline-end: 0.3em;
    top: 0.35em;
    display: flex;
    gap: 0.15em;
    opacity: 0;
  }
  .item:hover .actions,
  .item:focus-within .actions {
    opacity: 1;
  }
  /* Touch screens have no hover: the buttons always show. */
  @media (hover: none) {
    .actions {
      opacity: 1;
    }
    .open {
      padding-inline-end: 4.6em;
    }
  }
  button.icon {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    padding: 0;
    width: 2em;
    height: 2em;
    border-color: transparent;
    background: transparent;
    color: var(--_color-muted);
  }
  button.icon:hover:not(:disabled) {
    color: var(--_color-fg);
    background: var(--_color-bg);
  }
  .rename {
    font: inherit;
    color: inherit;
    width: 100%;
    background: var(--_color-bg);
    border: 1px solid var(--_color-accent);
    border-radius: calc(var(--_radius) * 0.75);
    padding: 0.4em 0.55em;
    margin: 0.1em 0;
  }
  .rename:focus-visible {
    outline: none;
  }
  .confirm {
    margin-top: 0;
  }
  /* A conversation's other versions hang under its title, on a thread line. */
  .forks {
    list-style: none;
    margin: 0 0 0.3em;
    margin-inline-start: 0.9em;
    padding: 0;
    border-inline-start: 2px solid var(--_color-border);
  }
  .fork {
    display: flex;
    align-items: baseline;
    gap: 0.4em;
    width: 100%;
    min-width: 0;
    text-align: start;
    border: 0;
    background: transparent;
    padding-block: 0.25em;
    padding-inline: 0.6em;
    font-size: 0.85em;
    color: var(--_color-muted);
    border-radius: inherit;
  }
  .fork:hover {
    color: var(--_color-fg);
  }
  .fork:focus-visible {
    outline-offset: -2px;
  }
  .fork-title {
    flex: 1;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .fork time {
    flex: none;
    font-size: 0.9em;
  }
  .more {
    display: block;
    width: 100%;
    margin-top: 0.4em;
  }
  .status {
    margin: 0.5em 0.6em;
    font-size: 0.85em;
    color: var(--_color-muted);
  }
  .status.error {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5em;
    color: var(--_color-danger);
  }
  .failure {
    margin: 0;
  }
  @keyframes pulse {
    50% {
      opacity: 0.35;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .badge::before {
      animation: none;
    }
  }
`;
