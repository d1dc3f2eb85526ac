/** An assistant message of the given content, for the element benchmarks' pages. */
import type { AgentMessage } from "@pi-kit/protocol";

const usage = {
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 2,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** An assistant message with `content` (a string is one text block). */
export function assistant(content: string | readonly unknown[]): AgentMessage {
  return {
    role: "assistant",
    content: typeof content === "string" ? [{ type: "text", text: content }] : content,
    api: "x",
    provider: "p",
    model: "m",
    usage,
    stopReason: "stop",
    timestamp: 0,
  } as AgentMessage;
}
