/**
 * The panel `<pi-dialog>` shows while pi waits on a dialog: its templates, keys and styles, the
 * countdown of the dialogs' deadlines (DialogCountdown) and the keys held back right after it took
 * the focus (TypingGuard), which no page needs before. It
 * loads with the first dialog (the element waits for it before that render), so a page pays for
 * it only once pi asks something. It imports nothing the element has that the page's lazy views
 * do not share too (the list keys and styles stay with the element), so loading it adds no chunk
 * to the page's entry.
 * @module
 */
import type { DialogRequest } from "@pi-kit/protocol";
import { type CSSResultOrNative, html, nothing } from "lit";
import { keyed } from "lit/directives/keyed.js";
import { format } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import { WARN_AT_SECONDS } from "./dialog-countdown.ts";
import { dialogStyles } from "./pi-dialog.styles.ts";
import type { TypingGuard } from "./typing-guard.ts";

export { DialogCountdown } from "./dialog-countdown.ts";
export { TypingGuard } from "./typing-guard.ts";

/** What the panel reads and drives on its `<pi-dialog>`. */
export interface DialogPanelHost extends HTMLElement {
  /** The highlighted option of a select. */
  active: number;
  readonly brief: boolean;
  readonly watching: boolean;
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly updateComplete: Promise<boolean>;
  answer(value: string | boolean): void;
  cancel(): void;
}

/** The dialog to draw and its state. */
export interface DialogPanelView {
  readonly request: DialogRequest;
  readonly strings: PiStrings;
  /** Dialogs waiting, this one included. */
  readonly total: number;
  /** Whole seconds left, when pi set a timeout (the last {@link WARN_AT_SECONDS} look urgent). */
  readonly left: number | undefined;
  /** Keys on a select's list (they move the highlight, Enter answers). */
  readonly onListKey: (event: KeyboardEvent) => void;
  /** The keys held back right after the dialog took the focus from a text field. */
  readonly typing: TypingGuard | undefined;
}

/** The panel's styles, adopted by the element when the panel loads. */
export const panelStyles: readonly CSSResultOrNative[] = [dialogStyles];

/** The panel for `view`, keyed by the request: a new dialog gets fresh fields. */
export function renderPanel(host: DialogPanelHost, view: DialogPanelView): unknown {
  const { request, strings: s, total, left } = view;
  const timeout = request.method === "editor" ? undefined : request.timeout;
  const fraction = left === undefined || !timeout ? 1 : Math.min(1, (left * 1000) / timeout);
  const described = [
    total > 1 ? "counter" : "",
    request.method === "confirm" ? "message" : "",
    left !== undefined ? "countdown" : "",
    "hint",
  ]
    .filter(Boolean)
    .join(" ");
  return keyed(
    request.id,
    html`<section
      part="panel"
      class="panel ${request.method}"
      role=${request.method === "confirm" ? "alertdialog" : "dialog"}
      aria-modal="false"
      aria-labelledby="title"
      aria-describedby=${described}
      @keydown=${{
        // Captured: a held-back key must reach neither a field's nor a list's handler, nor a button.
        handleEvent: (event: KeyboardEvent) => onKeyDown(host, view.typing, event),
        capture: true,
      }}
    >
      <div part="header" class="header">
        <h2 part="title" id="title" class="title">${host.brief ? request.title.split("\n")[0] : request.title}</h2>
        ${total > 1 ? html`<span part="counter" id="counter" class="counter">${format(s.dialogCounter, { index: 1, total })}</span>` : nothing}
        ${
          left === undefined
            ? nothing
            : html`<span part="countdown" id="countdown" class=${left <= WARN_AT_SECONDS ? "countdown urgent" : "countdown"}>${format(s.dialogSecondsLeft, { seconds: left })}</span>`
        }
      </div>
      ${left === undefined ? nothing : html`<div class="bar" aria-hidden="true"><div part="countdown-bar" style="transform: scaleX(${fraction})"></div></div>`}
      ${host.watching ? watchedBody(request, s) : body(host, view)}
    </section>`,
  );
}

/** Scrolls the highlighted option of a select into view. */
export function scrollActive(host: DialogPanelHost): void {
  host.renderRoot.querySelector(`#option-${host.active}`)?.scrollIntoView({ block: "nearest" });
}

/** What a watcher sees: the question and its choices, with no way to answer. */
function watchedBody(request: DialogRequest, s: PiStrings): unknown {
  const shown =
    request.method === "confirm"
      ? html`<p part="message" id="message" class="message">${request.message}</p>`
      : request.method === "select"
        ? html`<ul part="watching" class="listbox watched">
            ${request.options.map((option) => html`<li class="option">${option}</li>`)}
          </ul>`
        : request.method === "editor" && request.prefill
          ? html`<p part="watching" class="message">${request.prefill}</p>`
          : nothing;
  return html`${shown}
    <div part="actions" class="actions">
      <span part="hint" id="hint" class="hint">${s.dialogWatching}</span>
    </div>`;
}

function body(host: DialogPanelHost, { request, strings: s, onListKey }: DialogPanelView): unknown {
  const cancel = html`<button part="button cancel-button" @click=${() => host.cancel()}>${s.dialogCancel}</button>`;
  const submit = (label: string) =>
    html`<button part="button confirm-button" class="primary" @click=${() => host.answer(fieldValue(host))}>${label}</button>`;
  switch (request.method) {
    case "select":
      return html`<div
          part="listbox"
          class="listbox"
          role="listbox"
          tabindex="0"
          data-autofocus
          aria-labelledby="title"
          aria-activedescendant=${request.options.length ? `option-${host.active}` : nothing}
          @keydown=${onListKey}
        >
          ${request.options.map(
            (option, index) => html`<div
              part="option"
              class="option"
              id="option-${index}"
              role="option"
              aria-selected=${index === host.active ? "true" : "false"}
              @click=${() => host.answer(option)}
              @pointermove=${() => {
                host.active = index;
              }}
            >${option}</div>`,
          )}
        </div>
        <div part="actions" class="actions">
          <span part="hint" id="hint" class="hint">${s.dialogSelectHint}</span>${cancel}
        </div>`;
    case "confirm":
      return html`<p part="message" id="message" class="message">${request.message}</p>
        <div part="actions" class="actions" @keydown=${(event: KeyboardEvent) => onConfirmKey(host, event)}>
          <span part="hint" id="hint" class="hint">${s.dialogConfirmHint}</span>
          <button part="button cancel-button" data-autofocus @click=${() => host.answer(false)}>${s.dialogNo}</button>
          <button part="button confirm-button" class="primary" @click=${() => host.answer(true)}>${s.dialogYes}</button>
        </div>`;
    case "input":
      return html`<input
          part="input"
          class="field"
          type="text"
          data-autofocus
          aria-labelledby="title"
          placeholder=${request.placeholder ?? ""}
          @keydown=${(e: KeyboardEvent) => {
            if (e.key === "Enter" && !e.isComposing && e.keyCode !== 229) {
              e.preventDefault();
              host.answer((e.target as HTMLInputElement).value);
            }
          }}
        />
        <div part="actions" class="actions">
          <span part="hint" id="hint" class="hint">${s.dialogInputHint}</span>${cancel}${submit(s.dialogOk)}
        </div>`;
    case "editor":
      return html`<textarea
          part="textarea"
          class="field"
          rows="6"
          data-autofocus
          aria-labelledby="title"
          .value=${request.prefill ?? ""}
          @keydown=${(e: KeyboardEvent) => {
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !e.isComposing) {
              e.preventDefault();
              host.answer((e.target as HTMLTextAreaElement).value);
            }
          }}
        ></textarea>
        <div part="actions" class="actions">
          <span part="hint" id="hint" class="hint">${s.dialogEditorHint}</span>${cancel}${submit(s.dialogSubmit)}
        </div>`;
  }
}

function onKeyDown(
  host: DialogPanelHost,
  typing: TypingGuard | undefined,
  event: KeyboardEvent,
): void {
  if (typing?.ignores(event.key, event.timeStamp)) {
    event.preventDefault();
    event.stopPropagation();
    return;
  }
  if (event.key !== "Escape" || event.isComposing) return;
  event.preventDefault();
  // Esc must not also reach an enclosing chat, where it would stop the run.
  event.stopPropagation();
  host.cancel();
}

function onConfirmKey(host: DialogPanelHost, event: KeyboardEvent): void {
  if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
  const buttons = [...host.renderRoot.querySelectorAll<HTMLButtonElement>(".actions button")];
  const index = buttons.indexOf(event.target as HTMLButtonElement);
  if (index < 0) return;
  event.preventDefault();
  buttons[
    (index + (event.key === "ArrowRight" ? 1 : buttons.length - 1)) % buttons.length
  ]?.focus();
}

function fieldValue(host: DialogPanelHost): string {
  return (
    host.renderRoot.querySelector<HTMLInputElement | HTMLTextAreaElement>(".field")?.value ?? ""
  );
}
