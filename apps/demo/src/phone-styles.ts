import { css } from "lit";

/**
 * The shell on a phone: it ends where the on-screen keyboard begins (`--keyboard-inset`, from
 * `keyboard-inset.ts`), and on a touch screen every control of the header and the composer is a
 * target of at least 44 px (WCAG 2.5.5), the composer's buttons through the chat's parts.
 */
export const phoneStyles = css`
  :host {
    height: calc(100dvh - var(--keyboard-inset, 0px));
  }
  @media (pointer: coarse) {
    .icon-button,
    .icon-button.small,
    .text-button,
    .changes-count {
      min-width: 44px;
      min-height: 44px;
    }
    .pickers > *::part(select) {
      min-height: 44px;
    }
    pi-chat::part(send-button),
    pi-chat::part(steer-button),
    pi-chat::part(stop-button),
    pi-chat::part(attach-button) {
      min-width: 44px;
      min-height: 44px;
    }
  }
`;
