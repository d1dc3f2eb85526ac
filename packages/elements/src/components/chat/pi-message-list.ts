import { ContextConsumer } from "@lit/context";
import type { PendingDialog, ToolExecution } from "@pi-kit/client";
import type { AgentMessage } from "@pi-kit/protocol";
import { css, html, LitElement, nothing, type PropertyValues } from "lit";
import { repeat } from "lit/directives/repeat.js";
import { PiErrorEvent } from "../../events/pi-error.ts";
import { piConnectionContext } from "../../internal/context.ts";
import { format } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import { en } from "../../internal/i18n/locales/en.ts";
import { loadMarkdown } from "../../internal/markdown/markdown-loader.ts";
import type { PiRenderers } from "../../internal/renderers.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import type { MessageAction } from "./pi-message.ts";
import { ToolIndex } from "./tool-index.ts";

const EMPTY_EXECUTIONS: ReadonlyMap<string, ToolExecution> = new Map();

/**
 * The finished messages of a transcript, windowed: only the latest `page-size` messages are in
 * the DOM at first, and "show earlier" adds a page at a time. Streamed deltas never reach this
 * element (they only change the streaming message), so its cost does not grow with the history.
 *
 * @tagname pi-message-list
 * @summary Windowed list of finished messages.
 * @csspart show-earlier - The button that reveals earlier messages.
 */
export class PiMessageList extends LitElement {
  static override styles = [
    tokenStyles,
    baseStyles,
    css`
      :host {
        display: block;
      }
      .earlier {
        display: block;
        margin: 0.5em auto;
      }
    `,
  ];
  static override properties = {
    messages: { attribute: false },
    toolExecutions: { attribute: false },
    toolDialogs: { attribute: false },
    strings: { attribute: false },
    renderers: { attribute: false },
    actions: { type: Boolean },
    imageHosts: { attribute: false },
    pageSize: { type: Number, attribute: "page-size" },
    follow: { type: Boolean },
    start: { state: true },
  };

  /** Finished messages, oldest first. */
  declare messages: readonly AgentMessage[];
  /** Live tool executions of the latest run. */
  declare toolExecutions: ReadonlyMap<string, ToolExecution>;
  /** The extension dialog each tool call waits on, by tool call id (shown in its card). */
  declare toolDialogs: ReadonlyMap<string, PendingDialog> | undefined;
  /** UI strings. */
  declare strings: PiStrings;
  /** Custom renderers. */
  declare renderers: PiRenderers | undefined;
  /** Hosts whose images load without a click (see `<pi-markdown>`'s `image-hosts`). */
  declare imageHosts: readonly string[] | undefined;
  /** Offers Retry on the last answer and Edit on user messages (through the provided client). */
  declare actions: boolean;
  /** Messages rendered at first and added per "show earlier". */
  declare pageSize: number;
  /** Set while the reader is at the bottom: older messages may then leave the DOM again. */
  declare follow: boolean;
  /** Index of the first rendered message. */
  declare start: number;

  readonly #tools = new ToolIndex();
  readonly #connection = new ContextConsumer(this, {
    context: piConnectionContext,
    subscribe: true,
  });
  #initialized = false;

  constructor() {
    super();
    this.messages = [];
    this.toolExecutions = EMPTY_EXECUTIONS;
    this.strings = en;
    this.renderers = undefined;
    this.actions = false;
    this.pageSize = 60;
    this.follow = true;
    this.start = 0;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Fetch the markdown parser while the client connects, before the first message needs it.
    loadMarkdown().catch(() => undefined);
  }

  /** Reveals up to one more page of earlier messages, keeping the visible ones in place. */
  async showEarlier(): Promise<void> {
    const scroller = scrollerOf(this);
    const fromBottom = scroller ? scroller.scrollHeight - scroller.scrollTop : 0;
    this.start = Math.max(0, this.start - this.pageSize);
    await this.updateComplete;
    if (scroller) scroller.scrollTop = scroller.scrollHeight - fromBottom;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has("messages") && !changed.has("follow") && !changed.has("pageSize")) return;
    this.#tools.update(this.messages);
    const length = this.messages.length;
    if (!this.#initialized || this.start > length) {
      this.start = Math.max(0, length - this.pageSize);
      this.#initialized = length > 0;
    } else if (this.follow && length - this.start > this.pageSize * 2) {
      this.start = length - this.pageSize;
    }
  }

  protected override render(): unknown {
    const tools = this.#tools;
    const executions = this.toolExecutions;
    const visible: [number, AgentMessage][] = [];
    let lastAnswer = -1;
    for (let i = this.messages.length - 1; i >= 0 && lastAnswer < 0; i--)
      if (this.messages[i]?.role === "assistant") lastAnswer = i;
    const act = this.actions ? this.#act : undefined;
    for (let i = this.start; i < this.messages.length; i++) {
      const message = this.messages[i] as AgentMessage;
      if (tools.isPaired(message)) continue;
      if (message.role === "custom" && !message.display && !this.renderers?.roles) continue;
      visible.push([i, message]);
    }
    return html`${
      this.start > 0
        ? html`<button part="show-earlier" class="earlier" @click=${() => this.showEarlier()}>
            ${format(this.strings.showEarlier, { count: this.start })}
          </button>`
        : nothing
    }${repeat(
      visible,
      ([index]) => index,
      ([index, message]) => html`<pi-message
        exportparts="bubble, text, thinking, image, error, notice, bash, code-block, tool-call, tool-header, tool-arguments, tool-output, actions, action, time"
        .message=${message}
        .act=${act}
        ?last=${index === lastAnswer}
        .tools=${tools.slotsFor(message, executions, this.toolDialogs)}
        .strings=${this.strings}
        .renderers=${this.renderers}
        .imageHosts=${this.imageHosts}
      ></pi-message>`,
    )}`;
  }

  // Retry and Edit: fork at the user message and send it (again); loaded on first use.
  readonly #act: MessageAction = (message, action, text) => {
    const client = this.#connection.value?.client;
    const messages = this.messages;
    const index = messages.indexOf(message);
    if (client === undefined || index < 0) return;
    void import("./message-actions.ts")
      .then(({ questionOf, resend }) =>
        resend(client, messages, action === "retry" ? questionOf(messages, index) : index, text),
      )
      .catch((error: unknown) => this.dispatchEvent(new PiErrorEvent(action, error)));
  };
}

// The nearest ancestor that scrolls (in the chat, its transcript; the list itself does not).
function scrollerOf(element: Element): Element | null {
  for (let e = element.parentElement; e !== null; e = e.parentElement)
    if (/auto|scroll/.test(getComputedStyle(e).overflowY)) return e;
  return document.scrollingElement;
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-message-list": PiMessageList;
  }
}
