/**
 * One card of `<pi-toasts>`: its template and styles. It loads with the first toast (the element
 * waits for it before that render), so a page that is never notified does not pay for it.
 * @module
 */
import { html, nothing } from "lit";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import type { PiToast } from "./toast.ts";
import { cardStyles } from "./toast-card.styles.ts";

/** What a card reads and calls on its `<pi-toasts>`. */
export interface ToastCardView {
  readonly strings: PiStrings;
  /** The newest toast, the only one a phone shows. */
  readonly newest: string | undefined;
  /** The dismiss button was pressed; `keyboard` when it was not a pointer. */
  readonly dismiss: (id: string, keyboard: boolean) => void;
  /** The pointer entered a card (its id) or left one (`undefined`). */
  readonly hover: (id: string | undefined) => void;
}

/** The cards' styles, adopted by the element when they load. */
export const toastCardStyles = [cardStyles];

/** The card of `toast`. */
export function toastCard(toast: PiToast, view: ToastCardView): unknown {
  const s = view.strings;
  return html`<div
    part="toast"
    class="toast ${toast.type} ${toast.id === view.newest ? "newest" : ""}"
    data-id=${toast.id}
    @pointerenter=${() => view.hover(toast.id)}
    @pointerleave=${() => view.hover(undefined)}
  >
    ${toast.type === "info" ? nothing : html`<strong part="type" class="type">${toast.type === "error" ? s.notifyError : s.notifyWarning}:</strong>`}
    <span part="message" class="message" title=${toast.message}>${toast.message}</span>
    <button
      part="dismiss-button"
      class="dismiss"
      aria-label=${s.notifyDismiss}
      title=${s.notifyDismiss}
      @click=${(e: MouseEvent) => view.dismiss(toast.id, e.detail === 0)}
    >×</button>
  </div>`;
}
