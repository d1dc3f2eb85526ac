/**
 * A stored transcript as the ACP updates that replay it on `session/load`: user messages, answers
 * (text and thinking), and each tool call with its result. Messages ACP has no place for (system
 * prompts, compaction and branch summaries, extensions' custom messages) are left out.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { AgentMessage, UserMessage } from "@pi-kit/protocol";
import { resultContent, toolCall, toolDiffs } from "./tool-calls.ts";

/** The text of a user message (its images are not replayed). */
export function userText(message: UserMessage): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}

/** The updates that show `messages` in an editor, oldest first. */
export function historyUpdates(messages: readonly AgentMessage[]): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  const calls = new Map<string, { name: string; args: unknown }>();
  messages.forEach((message, index) => {
    const messageId = `history-${index}`;
    switch (message.role) {
      case "user":
        updates.push({
          sessionUpdate: "user_message_chunk",
          content: { type: "text", text: userText(message) },
          messageId,
        });
        return;
      case "assistant":
        for (const block of message.content) {
          if (block.type === "text") {
            updates.push({
              sessionUpdate: "agent_message_chunk",
              content: { type: "text", text: block.text },
              messageId,
            });
          } else if (block.type === "thinking" && block.redacted !== true) {
            updates.push({
              sessionUpdate: "agent_thought_chunk",
              content: { type: "text", text: block.thinking },
              messageId,
            });
          } else if (block.type === "toolCall") {
            calls.set(block.id, { name: block.name, args: block.arguments });
            updates.push({
              sessionUpdate: "tool_call",
              ...toolCall(block.id, block.name, block.arguments),
              status: "pending",
            });
          }
        }
        return;
      case "toolResult": {
        const call = calls.get(message.toolCallId);
        const diffs = call === undefined || message.isError ? [] : toolDiffs(call.name, call.args);
        updates.push({
          sessionUpdate: "tool_call_update",
          toolCallId: message.toolCallId,
          status: message.isError ? "failed" : "completed",
          content: diffs.length > 0 ? diffs : resultContent(message),
        });
        return;
      }
      default:
        return;
    }
  });
  return updates;
}
