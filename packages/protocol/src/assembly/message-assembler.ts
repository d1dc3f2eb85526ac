import type { AssistantContent, ToolCall } from "../types/content.ts";
import type { MessageUpdateEvent } from "../types/events.ts";
import type { AgentMessage, AssistantMessage } from "../types/messages.ts";

/** A tool call still streaming: `arguments` stays `{}` until `toolcall_end`; `partialArguments` is the JSON so far. */
export interface StreamingToolCall extends ToolCall {
  /** The argument JSON received so far (not parseable until complete). */
  readonly partialArguments: string;
}

/**
 * Builds the streaming assistant message from `message_start` plus `message_update` deltas, keyed by
 * `contentIndex`. Each update yields a new message object that shares every unchanged block, so a
 * delta costs O(blocks), never O(history). 0.73.x's cumulative `partial`/`message` copies are not
 * read (except for the tool-call id and name 0.73.x only sends there: one field lookup).
 */
export class MessageAssembler {
  #current: AgentMessage | undefined;
  // Deltas were lost (a dropped connection): later deltas would apply to the wrong text.
  #stale = false;

  /** The message being streamed, if any. */
  get current(): AgentMessage | undefined {
    return this.#current;
  }

  /** Starts a message (any role; only assistant messages stream). */
  start(message: AgentMessage): AgentMessage {
    this.#stale = false;
    this.#current = startStreamingMessage(message);
    return this.#current;
  }

  /** Applies one delta; returns the new message, or `undefined` when there is no assistant message. */
  update(event: MessageUpdateEvent): AgentMessage | undefined {
    const next = this.#stale
      ? rebaseStreamingMessage(event)
      : applyMessageDelta(this.#current, event);
    if (next === undefined) return undefined;
    this.#stale = false;
    this.#current = next;
    return next;
  }

  /** Ends the message; the `message_end` message is authoritative and replaces what was assembled. */
  end(): void {
    this.#current = undefined;
    this.#stale = false;
  }

  /**
   * Deltas were lost: the message so far stays as it was (frozen) and later deltas are ignored
   * until the next `message_start`, or, on 0.73.x, the next update's cumulative copy.
   */
  invalidate(): void {
    if (this.#current !== undefined) this.#stale = true;
  }
}

/** The streaming copy of a started message (an assistant message's content is copied, to grow). */
export function startStreamingMessage(message: AgentMessage): AgentMessage {
  return message.role === "assistant" ? { ...message, content: [...message.content] } : message;
}

/**
 * `current` with one delta applied, as a new message sharing every unchanged block; `undefined`
 * when `current` is not an assistant message.
 */
export function applyMessageDelta(
  current: AgentMessage | undefined,
  event: MessageUpdateEvent,
): AgentMessage | undefined {
  if (current?.role !== "assistant") return undefined;
  const step = event.assistantMessageEvent;
  const content = [...current.content];
  const at = step.contentIndex;
  const block = content[at];
  switch (step.type) {
    case "text_start":
      content[at] = { type: "text", text: "" };
      break;
    case "text_delta":
      content[at] = {
        type: "text",
        text: grow(block?.type === "text" ? block.text : "", step.delta),
      };
      break;
    case "text_end":
      content[at] = {
        ...(block?.type === "text" ? block : {}),
        type: "text",
        text: step.content,
      };
      break;
    case "thinking_start":
      content[at] = { type: "thinking", thinking: "" };
      break;
    case "thinking_delta":
      content[at] = {
        type: "thinking",
        thinking: grow(block?.type === "thinking" ? block.thinking : "", step.delta),
      };
      break;
    case "thinking_end":
      content[at] = {
        ...(block?.type === "thinking" ? block : {}),
        type: "thinking",
        thinking: step.content,
      };
      break;
    case "toolcall_start": {
      const fromPartial = step.id === undefined ? step.partial?.content[at] : undefined;
      const legacy = fromPartial?.type === "toolCall" ? fromPartial : undefined;
      const started: StreamingToolCall = {
        type: "toolCall",
        id: step.id ?? legacy?.id ?? "",
        name: step.toolName ?? legacy?.name ?? "",
        arguments: {},
        partialArguments: "",
      };
      content[at] = started;
      break;
    }
    case "toolcall_delta": {
      if (block?.type !== "toolCall") break;
      const previous = "partialArguments" in block ? String(block.partialArguments) : "";
      const next: StreamingToolCall = { ...block, partialArguments: previous + step.delta };
      content[at] = next;
      break;
    }
    case "toolcall_end":
      content[at] = step.toolCall;
      break;
    default:
      return current;
  }
  const usage = event.usage ?? current.usage;
  return { ...current, content: fill(content), usage } satisfies AssistantMessage;
}

/**
 * After lost deltas, the message from 0.73.x's cumulative copy, which it repeats in every update
 * (once, after a gap, that copy is worth reading); `undefined` without one (1.x).
 */
export function rebaseStreamingMessage(event: MessageUpdateEvent): AgentMessage | undefined {
  const whole = event.message;
  if (whole?.role !== "assistant") return undefined;
  return { ...whole, content: [...whole.content] };
}

// A delta for index 2 before index 1 exists would leave a hole; holes are not valid content.
function fill(content: (AssistantContent | undefined)[]): AssistantContent[] {
  return content.map((block) => block ?? { type: "text", text: "" });
}

/**
 * `text + delta`, flattened whenever the length crosses a power of two. Engines keep repeated
 * concatenation as a rope; a rope of 100k pieces outlives young-generation collections and costs
 * the garbage collector more per piece than a short one. Flattening at each doubling copies each
 * character O(1) times overall and keeps ropes short, so assembly stays linear in practice.
 */
function grow(text: string, delta: string): string {
  const next = text + delta;
  // The length crossed a power of two when its highest set bit changed.
  if (text.length >= 1024 && (next.length ^ text.length) > text.length) {
    // Slicing a rope makes the engine flatten it first.
    return ` ${next}`.slice(1);
  }
  return next;
}
