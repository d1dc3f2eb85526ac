import type { AgentMessage } from "@pi-kit/protocol";
import { html, LitElement, nothing, type TemplateResult } from "lit";
import { PiEditEvent } from "../../events/pi-edit.ts";
import { PiRetryEvent } from "../../events/pi-retry.ts";
import { copyFromButton } from "../../internal/copy.ts";
import { textOf } from "../../internal/i18n/format.ts";
import { type PiStrings, resolveLang } from "../../internal/i18n/i18n.ts";
import { en } from "../../internal/i18n/locales/en.ts";
import { adoptPartStyles, LazyPart } from "../../internal/lazy-part.ts";
import type { PiRenderers, ToolSlot } from "../../internal/renderers.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import { messageView } from "./message-views.ts";
import { messageStyles } from "./pi-message.styles.ts";

/** The Edit form and the "Try again?" question, loaded when the user first asks for either. */
const editingPart = new LazyPart(() => import("./message-editing.ts"));

/** The error box of a failed answer, loaded with the first one. */
const errorPart = new LazyPart(() => import("./error-notice.ts"));

const failed = (message: AgentMessage | undefined): boolean =>
  message?.role === "assistant" && message.stopReason === "error";

/** What a message's Retry and Edit buttons ask for; the message list does it. */
export type MessageAction = (
  message: AgentMessage,
  action: "retry" | "edit",
  text?: string,
) => void;

/** The markdown of an answer's text blocks, or a user message's text. */
function copyText(message: AgentMessage): string {
  if (message.role === "assistant")
    return message.content
      .flatMap((b) => (b.type === "text" && b.text ? [b.text] : []))
      .join("\n\n");
  return message.role === "user" ? textOf(message.content) : "";
}

/**
 * One message of the transcript, of any role. Its inputs are immutable snapshot objects, so an
 * unchanged message is never rendered again: Lit skips property sets with the same value.
 * User messages and answers get actions, shown on hover or focus (always on touch screens): copy
 * (an answer as markdown), the time it was sent, and, given an `act` callback, Edit (send a
 * changed text from this point) and, on the last answer, Try again, which first says that the
 * answer is kept as another version of the conversation and asks to go ahead. While an answer
 * streams, a caret follows the text, and "Thinking…" shows before its first token.
 *
 * @tagname pi-message
 * @summary One transcript message.
 * @event pi-copy - Before the message is copied; cancelable. {@link PiCopyEvent}
 * @event pi-retry - Before the answer is asked for again; cancelable. {@link PiRetryEvent}
 * @event pi-edit - Before an edited message is sent; cancelable. {@link PiEditEvent}
 * @csspart bubble - The user's message bubble.
 * @csspart text - Assistant markdown text.
 * @csspart thinking - A thinking block (`details`).
 * @csspart image - An image.
 * @csspart error - The error of a failed answer.
 * @csspart notice - System, compaction and branch summaries, aborts, custom messages.
 * @csspart bash - A direct shell command.
 * @csspart actions - The row of message actions.
 * @csspart action - Each action button.
 * @csspart time - When the message was sent.
 * @csspart editor - The text area of a message being edited.
 * @csspart pending - "Thinking…" before an answer's first token.
 */
export class PiMessage extends LitElement {
  static override styles = [tokenStyles, baseStyles, messageStyles];
  static override properties = {
    message: { attribute: false },
    streaming: { type: Boolean, reflect: true },
    strings: { attribute: false },
    tools: { attribute: false },
    renderers: { attribute: false },
    imageHosts: { attribute: false },
    act: { attribute: false },
    last: { type: Boolean },
    editing: { state: true },
    confirmingRetry: { state: true },
  };

  /** The message to show. */
  declare message: AgentMessage | undefined;
  /** True while it is the message being streamed. */
  declare streaming: boolean;
  /** UI strings. */
  declare strings: PiStrings;
  /** Execution and result of each tool call, in the order of the tool-call blocks. */
  declare tools: readonly ToolSlot[] | undefined;
  /** Custom renderers. */
  declare renderers: PiRenderers | undefined;
  /** Hosts whose images load without a click (see `<pi-markdown>`'s `image-hosts`). */
  declare imageHosts: readonly string[] | undefined;
  /** Carries out Retry and Edit; without it those buttons are not shown (a read-only view). */
  declare act: MessageAction | undefined;
  /** This is the last answer (the one Retry replaces). */
  declare last: boolean;
  /**
   * The user message is being edited.
   * @internal
   */
  declare editing: boolean;
  /**
   * "Try again" was pressed: the question of whether to go ahead is shown.
   * @internal
   */
  declare confirmingRetry: boolean;

  constructor() {
    super();
    this.streaming = false;
    this.strings = en;
    this.last = false;
    this.editing = false;
    this.confirmingRetry = false;
  }

  /**
   * The first render of a failed answer, and the first that edits or asks, wait for their part,
   * so `updateComplete` covers it.
   */
  protected override scheduleUpdate(): Promise<unknown> | undefined {
    return errorPart.schedule(
      () => failed(this.message),
      () =>
        editingPart.schedule(
          () => this.editing || this.confirmingRetry,
          () => super.scheduleUpdate(),
        ),
    );
  }

  protected override willUpdate(): void {
    const editing = this.editing || this.confirmingRetry;
    errorPart.reload(failed(this.message), this);
    editingPart.reload(editing, this);
    const part = editingPart.module;
    if (part !== undefined && editing) adoptPartStyles(this, part.editingStyles);
  }

  protected override render(): unknown {
    const message = this.message;
    if (message === undefined) return nothing;
    this.setAttribute("role-name", message.role);
    const part = editingPart.module;
    if (part !== undefined && this.editing && message.role === "user")
      return part.editForm(copyText(message), {
        strings: this.strings,
        confirm: (text = "") => {
          this.editing = false;
          if (this.dispatchEvent(new PiEditEvent(message, text))) this.act?.(message, "edit", text);
        },
        cancel: () => {
          this.editing = false;
        },
      });
    return html`${messageView(message, {
      strings: this.strings,
      streaming: this.streaming,
      tools: this.tools,
      renderers: this.renderers,
      imageHosts: this.imageHosts,
      errorNotice: errorPart.module?.errorNotice,
    })}${this.#actions(message)}`;
  }

  protected override updated(changed: Map<PropertyKey, unknown>): void {
    if (this.editing) this.renderRoot.querySelector("textarea")?.focus();
    if (changed.has("confirmingRetry") && this.confirmingRetry)
      editingPart.module?.focusConfirmBar(this.renderRoot);
  }

  #actions(message: AgentMessage): unknown {
    if (this.streaming || (message.role !== "user" && message.role !== "assistant")) return nothing;
    const s = this.strings;
    const text = copyText(message);
    const act = this.act;
    const retry = act !== undefined && message.role === "assistant" && this.last;
    // An answer of tool calls only has nothing to copy: no row under it.
    if (text === "" && !retry) return nothing;
    const part = editingPart.module;
    if (retry && this.confirmingRetry && part !== undefined)
      return part.retryQuestion({
        strings: s,
        confirm: () => {
          this.confirmingRetry = false;
          if (this.dispatchEvent(new PiRetryEvent(message))) act?.(message, "retry");
        },
        cancel: () => {
          this.confirmingRetry = false;
        },
      });
    return html`<div part="actions" class="actions">
      ${time(message.timestamp, resolveLang(this))}
      ${
        text
          ? html`<button type="button" part="action" class="action" data-done=${s.copied} @click=${(e: Event) => this.#copy(e, text)}><span>${s.copyMessage}</span></button>`
          : nothing
      }
      ${
        act && message.role === "user" && text
          ? html`<button type="button" part="action" class="action" @click=${() => {
              this.editing = true;
            }}>${s.editMessage}</button>`
          : nothing
      }
      ${
        retry
          ? html`<button type="button" part="action" class="action" title=${s.retryConfirm} @click=${() => {
              this.confirmingRetry = true;
            }}>${s.retry}</button>`
          : nothing
      }
    </div>`;
  }

  #copy(event: Event, text: string): void {
    const button = event.currentTarget as HTMLElement;
    copyFromButton(button, text, "message");
  }
}

const formats = new Map<string, [Intl.DateTimeFormat, Intl.DateTimeFormat]>();

/** The time a message was sent: hours and minutes (with the date if not today), in full on hover. */
function time(timestamp: number, lang: string): TemplateResult | typeof nothing {
  if (!(timestamp > 0)) return nothing;
  let pair = formats.get(lang);
  if (pair === undefined) {
    pair = [
      new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit" }),
      new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "medium" }),
    ];
    formats.set(lang, pair);
  }
  const date = new Date(timestamp);
  const today = date.toDateString() === new Date().toDateString();
  const short = today
    ? pair[0].format(date)
    : `${date.toLocaleDateString(lang, { month: "short", day: "numeric" })} ${pair[0].format(date)}`;
  return html`<time part="time" datetime=${date.toISOString()} title=${pair[1].format(date)}>${short}</time>`;
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-message": PiMessage;
  }
}
