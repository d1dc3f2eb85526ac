/**
 * The inline "are you sure?" of the lists (fork picker, session tree, session list): a sentence and
 * two buttons in place, never a modal. The host focuses the button marked `data-autofocus` (the
 * safe one for a destructive action) and gets Escape as a cancel.
 */
import { html, type TemplateResult } from "lit";

/** What a confirmation says and does. */
export interface ConfirmBar {
  /** The question. */
  readonly text: string;
  /** The label of the button that goes ahead. */
  readonly confirm: string;
  /** The label of the button that backs out. */
  readonly cancel: string;
  /** True for an action that loses data: the go-ahead is red and the focus starts on cancel. */
  readonly destructive?: boolean;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}

/** Renders a confirmation. */
export function confirmBar(bar: ConfirmBar): TemplateResult {
  const destructive = bar.destructive === true;
  return html`<div
    part="confirm"
    class="confirm"
    role="group"
    aria-labelledby="confirm-text"
    @keydown=${(event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      // Esc must not also reach an enclosing chat, where it would stop the run.
      event.stopPropagation();
      bar.onCancel();
    }}
  >
    <span id="confirm-text" class="confirm-text">${bar.text}</span>
    <span class="confirm-actions">
      <button part="cancel-button" ?data-autofocus=${destructive} @click=${bar.onCancel}>${bar.cancel}</button>
      <button
        part="confirm-button"
        class=${destructive ? "destructive" : "primary"}
        ?data-autofocus=${!destructive}
        @click=${bar.onConfirm}
      >${bar.confirm}</button>
    </span>
  </div>`;
}

/** Moves the focus to a shown confirmation's first choice (see {@link ConfirmBar.destructive}). */
export function focusConfirmBar(root: ParentNode): void {
  root.querySelector<HTMLElement>("[part=confirm] [data-autofocus]")?.focus();
}
