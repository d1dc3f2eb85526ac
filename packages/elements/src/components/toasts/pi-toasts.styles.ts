import { css } from "lit";

/** Styles of `<pi-toasts>` itself: where the stack sits (the cards' styles load with them). */
export const toastStyles = css`
  :host {
    display: block;
    position: var(--position, fixed);
    inset: var(--inset, auto 1rem 1rem auto);
    z-index: 1000;
    width: min(var(--width, 22rem), calc(100vw - 2rem));
    pointer-events: none;
  }
  .stack,
  .region {
    display: flex;
    flex-direction: column;
    gap: 0.5em;
  }
  .stack {
    gap: 0.5em;
  }
  .region:empty {
    display: none;
  }
`;
