import { css } from "lit";

/** Styles of `<pi-fork-picker>` (the list itself comes from the shared list styles). */
export const forkPickerStyles = css`
  :host {
    display: block;
    --max-height: 20rem;
  }
  /* The clamp sits on the text, not the padded row: clipped at the padding box, a fourth line
     peeked out half-cut under long messages. */
  .text {
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: 3;
    line-clamp: 3;
    overflow: hidden;
    white-space: pre-wrap;
  }
`;
