import { css } from "lit";

/** Look of the inline confirmation (see `internal/confirm-bar.ts`). */
export const confirmStyles = css`
  .confirm {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.4em 0.6em;
    padding: 0.45em 0.6em;
    margin-top: 0.4em;
    border: 1px solid var(--_color-accent);
    border-radius: calc(var(--_radius) * 0.75);
    background: var(--_color-bg);
  }
  .confirm:has(.destructive) {
    border-color: var(--_color-danger);
  }
  .confirm-text {
    flex: 1 1 12em;
    font-size: 0.9em;
    overflow-wrap: anywhere;
  }
  .confirm-actions {
    display: flex;
    gap: 0.4em;
    margin-inline-start: auto;
  }
  button.destructive {
    background: var(--_color-danger);
    border-color: var(--_color-danger);
    color: var(--_color-bg);
  }
`;
