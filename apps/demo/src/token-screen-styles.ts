import { css } from "lit";

/** The card of the token screen (`token-screen.ts`) and of the pairing screens (`pair-device.ts`). */
export const tokenScreenStyles = css`
  .token-screen {
    grid-column: 1 / -1;
    display: grid;
    place-items: center;
    padding: 1rem;
    overflow-y: auto;
  }
  .card {
    width: min(32rem, 100%);
    padding: 2rem;
    border: 1px solid var(--_color-border);
    border-radius: calc(var(--_radius) * 1.5);
    background: var(--_color-bg);
    box-shadow: 0 0.5rem 2rem color-mix(in srgb, var(--_color-fg) 8%, transparent);
  }
  .card h1 {
    margin: 1rem 0 0.5rem;
    font-size: 1.3rem;
  }
  .card p {
    margin: 0 0 1.25rem;
    color: var(--_color-muted);
  }
  .card label {
    display: block;
    margin-bottom: 0.35rem;
    font-weight: 600;
    font-size: 0.9em;
  }
  .card .row {
    display: flex;
    gap: 0.5rem;
  }
  .card input {
    flex: 1;
    min-width: 0;
    padding: 0.45em 0.7em;
    border: 1px solid var(--_color-border);
    border-radius: calc(var(--_radius) * 0.75);
    background: var(--_color-bg);
    font-family: var(--_font-mono);
    font-size: 0.9em;
  }
  .card input[aria-invalid="true"] {
    border-color: var(--_color-danger);
  }
  .card .hint,
  .card .error {
    margin: 0.5rem 0 0;
    font-size: 0.85em;
  }
  .card .error {
    color: var(--_color-danger);
  }
`;
