import type { AgentMessage } from "@pi-kit/protocol";
import { LitElement, nothing } from "lit";
import { en, type PiStrings } from "../../internal/i18n.ts";
import type { PiRenderers, ToolSlot } from "../../internal/renderers.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import { messageView } from "./message-views.ts";
import { messageStyles } from "./pi-message.styles.ts";

/**
 * One message of the transcript, of any role. Its inputs are immutable snapshot objects, so an
 * unchanged message is never rendered again: Lit skips property sets with the same value.
 *
 * @tagname pi-message
 * @summary One transcript message.
 * @csspart bubble - The user's message bubble.
 * @csspart text - Assistant markdown text.
 * @csspart thinking - A thinking block (`details`).
 * @csspart image - An image.
 * @csspart error - The error of a failed answer.
 * @csspart notice - System, compaction and branch summaries, aborts, custom messages.
 * @csspart bash - A direct shell command.
 */
export class PiMessage extends LitElement {
  static override styles = [tokenStyles, baseStyles, messageStyles];
  static override properties = {
    message: { attribute: false },
    streaming: { type: Boolean, reflect: true },
    strings: { attribute: false },
    tools: { attribute: false },
    renderers: { attribute: false },
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

  constructor() {
    super();
    this.streaming = false;
    this.strings = en;
  }

  protected override render(): unknown {
    const message = this.message;
    if (message === undefined) return nothing;
    this.setAttribute("role-name", message.role);
    return messageView(message, {
      strings: this.strings,
      streaming: this.streaming,
      tools: this.tools,
      renderers: this.renderers,
    });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-message": PiMessage;
  }
}
