import { css } from "lit";

/** The output of a file tool that failed (red), or was denied or stopped (muted). */
export const errorTextStyles = css`
  .error-text {
    color: var(--_color-danger);
  }
  .denied .error-text,
  .aborted .error-text {
    color: var(--_color-muted);
  }
`;
