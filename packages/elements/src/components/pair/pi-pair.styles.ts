import { css } from "lit";

/** Styles of `<pi-pair>`. */
export const pairStyles = css`
  :host {
    display: block;
    max-width: 22rem;
    text-align: center;
  }
  h2 {
    margin: 0 0 0.4em;
    font-size: 1.1em;
  }
  .hint,
  .muted {
    color: var(--_color-muted);
    font-size: 0.85em;
    margin: 0 0 0.8em;
  }
  .qr {
    display: block;
    width: min(15rem, 70vw);
    height: auto;
    margin: 0 auto 0.8em;
    border-radius: var(--_radius);
    /* A QR code reads best dark on light, whatever the scheme. */
    background: #ffffff;
  }
  .qr path {
    fill: #000000;
  }
  .qr.placeholder {
    aspect-ratio: 1;
    background: var(--_color-surface);
  }
  .code {
    font-family: var(--_font-mono);
    font-size: 1.6em;
    letter-spacing: 0.15em;
    margin: 0 0 0.2em;
    user-select: all;
  }
  .expired {
    opacity: 0.35;
  }
  .actions {
    display: flex;
    justify-content: center;
    gap: 0.6em;
    margin-top: 0.6em;
  }
  .actions button {
    min-height: 2.75rem;
  }
  .error {
    color: var(--_color-danger);
    font-size: 0.85em;
    overflow-wrap: anywhere;
  }
`;
