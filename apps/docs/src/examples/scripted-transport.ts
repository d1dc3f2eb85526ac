/**
 * A pi made of a table: each command the client writes is answered from `answers` (by command
 * type), and `push` sends events as pi would. For the live examples that need answers a recording
 * does not hold (models, thinking levels, commands, a tree); deterministic, no timers.
 */
import type { Transport, TransportCloseInfo, TransportFrames } from "@pi-kit/client";

/** What to answer to one command type: its `data`, or a function of the command. */
export type Answer = unknown | ((command: Record<string, unknown>) => unknown);

/** A transport with a scripted pi on the other end. */
export interface ScriptedTransport extends Transport {
  /** Sends records to the client, as pi would. */
  push(...records: readonly object[]): void;
}

/** The state every scripted pi starts from. */
export const STATE = {
  model: {
    id: "claude-sonnet-4-5",
    name: "Claude Sonnet 4.5",
    api: "anthropic-messages",
    provider: "anthropic",
    baseUrl: "",
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    contextWindow: 200_000,
    maxTokens: 32_000,
  },
  thinkingLevel: "medium",
  isStreaming: false,
  isCompacting: false,
  steeringMode: "one-at-a-time",
  followUpMode: "one-at-a-time",
  sessionId: "docs",
  autoCompactionEnabled: true,
  messageCount: 0,
  pendingMessageCount: 0,
};

/** A transport answering from `answers`; unknown commands succeed without data. */
export function createScriptedTransport(answers: Record<string, Answer> = {}): ScriptedTransport {
  let controller!: ReadableStreamDefaultController<TransportFrames>;
  const readable = new ReadableStream<TransportFrames>({
    start(c) {
      controller = c;
    },
  });
  let settle!: (info: TransportCloseInfo) => void;
  const closed = new Promise<TransportCloseInfo>((resolve) => {
    settle = resolve;
  });
  const push = (...records: readonly object[]): void =>
    controller.enqueue(records.map((record) => JSON.stringify(record)));
  const table: Record<string, Answer> = { get_state: STATE, ...answers };
  const writable = new WritableStream<string>({
    write(line) {
      const command = JSON.parse(line) as Record<string, unknown>;
      if (command.type === "extension_ui_response") return;
      const answer = table[String(command.type)];
      const data = typeof answer === "function" ? answer(command) : answer;
      push({ id: command.id, type: "response", command: command.type, success: true, data });
    },
  });
  return {
    readable,
    writable,
    closed,
    push,
    close() {
      settle({ reason: "closed" });
      return closed;
    },
  };
}
