import type { PendingDialog, ToolExecution } from "@pi-kit/client";
import type { AgentMessage, AssistantMessage, ToolResultMessage } from "@pi-kit/protocol";
import type { ToolSlot } from "../../internal/renderers.ts";

const NO_DIALOGS: ReadonlyMap<string, PendingDialog> = new Map();

/**
 * Pairs tool calls with their results across the history, indexing only appended messages
 * (messages are append-only between resyncs), and hands each assistant message the same slot
 * array until one of its tools changes, so unchanged messages are not rendered again.
 */
export class ToolIndex {
  readonly results = new Map<string, ToolResultMessage>();
  readonly calls = new Set<string>();
  #messages: readonly AgentMessage[] = [];
  readonly #slots = new WeakMap<AssistantMessage, readonly ToolSlot[]>();

  /** Brings the index up to date with `messages`. */
  update(messages: readonly AgentMessage[]): void {
    const previous = this.#messages;
    let from = previous.length;
    if (messages.length < from || (from > 0 && messages[from - 1] !== previous[from - 1])) {
      this.results.clear();
      this.calls.clear();
      from = 0;
    }
    for (let i = from; i < messages.length; i++) {
      const message = messages[i];
      if (message?.role === "toolResult") this.results.set(message.toolCallId, message);
      else if (message?.role === "assistant")
        for (const block of message.content)
          if (block.type === "toolCall") this.calls.add(block.id);
    }
    this.#messages = messages;
  }

  /** True for a tool result whose call is in the history (it is shown inside the call's card). */
  isPaired(message: AgentMessage): boolean {
    return message.role === "toolResult" && this.calls.has(message.toolCallId);
  }

  /**
   * The slots of an assistant message's tool calls, with the dialog each waits on (by tool call
   * id); the same array while nothing changed.
   */
  slotsFor(
    message: AgentMessage,
    executions: ReadonlyMap<string, ToolExecution>,
    dialogs: ReadonlyMap<string, PendingDialog> = NO_DIALOGS,
  ): readonly ToolSlot[] | undefined {
    if (message.role !== "assistant") return undefined;
    const next: ToolSlot[] = [];
    for (const block of message.content) {
      if (block.type === "toolCall")
        next.push({
          execution: executions.get(block.id),
          result: this.results.get(block.id),
          dialog: dialogs.get(block.id),
        });
    }
    if (next.length === 0) return undefined;
    const cached = this.#slots.get(message);
    if (
      cached !== undefined &&
      cached.length === next.length &&
      cached.every(
        (slot, i) =>
          slot.execution === next[i]?.execution &&
          slot.result === next[i]?.result &&
          slot.dialog === next[i]?.dialog,
      )
    )
      return cached;
    this.#slots.set(message, next);
    return next;
  }
}
