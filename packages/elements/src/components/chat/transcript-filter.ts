import type { AgentMessage } from "@pi-kit/protocol";

// How many failed attempts each shown error message stands for. Snapshot messages are immutable,
// so the count can hang off the message object itself.
const attempts = new WeakMap<AgentMessage, number>();

/** How many failed attempts of one request this error message stands for (1 when it stands alone). */
export function failedAttempts(message: AgentMessage): number {
  return attempts.get(message) ?? 1;
}

/** pi's bookkeeping notices (the system prompt, re-sent with every run), which readers rarely need. */
export function isInternal(message: AgentMessage): boolean {
  return message.role === "system";
}

const isFailure = (message: AgentMessage): boolean =>
  message.role === "assistant" && message.stopReason === "error";

/**
 * What the chat shows of a transcript. pi answers a failing provider with one error message per
 * attempt (four for one failure with the default three retries): a run of them is shown as its
 * last one, carrying the count, and not at all once a retry succeeded. Internal notices are left
 * out unless asked for. Recomputed only when the message list changes, not on streamed deltas.
 */
export class TranscriptFilter {
  #messages: readonly AgentMessage[] | undefined;
  #showInternal = false;
  #visible: readonly AgentMessage[] = [];

  /** The messages to show. */
  of(messages: readonly AgentMessage[], showInternal: boolean): readonly AgentMessage[] {
    if (messages === this.#messages && showInternal === this.#showInternal) return this.#visible;
    this.#messages = messages;
    this.#showInternal = showInternal;
    const visible: AgentMessage[] = [];
    let failures: AgentMessage[] = [];
    const flush = (recovered: boolean): void => {
      const last = failures.at(-1);
      if (last !== undefined && !recovered) {
        attempts.set(last, failures.length);
        visible.push(last);
      }
      failures = [];
    };
    for (const message of messages) {
      if (!showInternal && isInternal(message)) continue;
      if (isFailure(message)) {
        failures.push(message);
        continue;
      }
      // An answer right after failed attempts is a retry that worked: the failures are history.
      flush(message.role === "assistant");
      visible.push(message);
    }
    flush(false);
    this.#visible = visible;
    return visible;
  }
}
