import { css } from "lit";

/** Styles of `<pi-fork-picker>` (the list itself comes from the shared list styles). */
export const forkPickerStyles = css`
  :host {
    display: block;
    --max-height: 20rem;
  }
  .option {
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: 3;
    line-clamp: 3;
    overflow: hidden;
    white-space: pre-wrap;
  }
`;
