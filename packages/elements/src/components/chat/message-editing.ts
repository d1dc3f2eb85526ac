/**
 * A message's Edit form and its "Try again?" question: templates and styles. They load when the
 * user first asks for either (`<pi-message>` waits for them before that render), so reading a
 * conversation does not pay for them.
 * @module
 */
import { css, html } from "lit";
import { confirmBar } from "../../internal/confirm-bar.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import { confirmStyles } from "../../styles/confirm.ts";

export { focusConfirmBar } from "../../internal/confirm-bar.ts";

/** The styles of the form and the question, adopted by the message when they load. */
export const editingStyles = [
  confirmStyles,
  css`
    .actions.confirming {
      display: block;
      color: inherit;
      font-size: 1em;
      opacity: 1;
    }
    .editing {
      display: flex;
      flex-direction: column;
      gap: 0.4em;
      width: min(85%, 46em);
    }
    .editing textarea {
      font: inherit;
      color: inherit;
      background: var(--_color-bg);
      border: 1px solid var(--_color-border);
      border-radius: calc(var(--_radius) * 0.75);
      padding: 0.4em 0.6em;
      resize: vertical;
    }
    .edit-actions {
      display: flex;
      justify-content: flex-end;
      gap: 0.4em;
    }
  `,
];

/** What the question and the form say and call on their message. */
export interface EditingView {
  readonly strings: PiStrings;
  /** Go ahead: retry, or send the edited `text` (never empty). */
  readonly confirm: (text?: string) => void;
  /** Back out. */
  readonly cancel: () => void;
}

/** "Try again?": that the answer is kept as another version, and whether to go ahead. */
export function retryQuestion(view: EditingView): unknown {
  const s = view.strings;
  return html`<div part="actions" class="actions confirming">${confirmBar({
    text: s.retryConfirm,
    confirm: s.retry,
    cancel: s.editCancel,
    onConfirm: () => view.confirm(),
    onCancel: view.cancel,
  })}</div>`;
}

/** The form that edits a user message's `text`; Ctrl/⌘+Enter sends, Escape backs out. */
export function editForm(text: string, view: EditingView): unknown {
  const s = view.strings;
  const send = (form: HTMLElement): void => {
    const edited = form.querySelector("textarea")?.value.trim() ?? "";
    if (edited !== "") view.confirm(edited);
  };
  return html`<form part="bubble" class="bubble user editing" @submit=${(e: Event) => {
    e.preventDefault();
    send(e.currentTarget as HTMLElement);
  }}>
    <textarea part="editor" aria-label=${s.editMessage} rows="3" .value=${text} @keydown=${(
      e: KeyboardEvent,
    ) => {
      if (e.key === "Escape") {
        e.stopPropagation();
        view.cancel();
      } else if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !e.isComposing) {
        e.preventDefault();
        send((e.currentTarget as HTMLElement).closest("form") as HTMLElement);
      }
    }}></textarea>
    <div class="edit-actions">
      <button type="button" @click=${view.cancel}>${s.editCancel}</button>
      <button type="submit" class="primary">${s.editSend}</button>
    </div>
  </form>`;
}
