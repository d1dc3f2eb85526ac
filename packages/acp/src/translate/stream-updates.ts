/**
 * pi's live events as ACP `session/update` payloads: text and thinking deltas as message and
 * thought chunks, a tool call from its complete arguments (`toolcall_end`) through its execution
 * (`tool_execution_*`, bash output streaming as cumulative text), a user message another client
 * sent, and the session's new title. Stateful only as far as the stream needs: the message id of
 * the streaming answer and the tool calls already announced.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { ClientEvent } from "@pi-kit/client";
import type { AgentMessage, AssistantMessageEvent } from "@pi-kit/protocol";
import { userText } from "./history-updates.ts";
import { resultContent, toolCall, toolDiffs } from "./tool-calls.ts";

/** Turns one session's pi events into ACP updates, in order. */
export class StreamTranslator {
  #message = 0;
  #messageId: string | undefined;
  readonly #announced = new Set<string>();
  readonly #names = new Map<string, { name: string; args: unknown }>();
  /** User messages this agent sent itself: the editor shows them already, so they are not echoed. */
  readonly #ownPrompts: string[] = [];

  /** Notes a prompt this agent sends, so its echo in pi's stream is skipped once. */
  expectOwnPrompt(text: string): void {
    this.#ownPrompts.push(text);
  }

  /** The updates `event` becomes (none for events ACP has no place for). */
  translate(event: ClientEvent): SessionUpdate[] {
    switch (event.type) {
      case "message_start":
        if (event.message.role === "assistant") this.#messageId = `pi-${++this.#message}`;
        return [];
      case "message_update":
        return this.#delta(event.assistantMessageEvent);
      case "message_end":
        return this.#userMessage(event.message);
      case "tool_execution_start": {
        const known = this.#announced.has(event.toolCallId);
        this.#names.set(event.toolCallId, { name: event.toolName, args: event.args });
        if (!known) {
          this.#announced.add(event.toolCallId);
          return [
            {
              sessionUpdate: "tool_call",
              ...toolCall(event.toolCallId, event.toolName, event.args),
              status: "in_progress",
            },
          ];
        }
        return [
          {
            sessionUpdate: "tool_call_update",
            toolCallId: event.toolCallId,
            status: "in_progress",
          },
        ];
      }
      case "tool_execution_update": {
        // Only a tool that reports output as it goes (bash) says anything new here; the partial
        // result is cumulative and ACP replaces a call's content, so it is sent whole.
        const content = resultContent(event.partialResult);
        if (content.length === 0) return [];
        return [{ sessionUpdate: "tool_call_update", toolCallId: event.toolCallId, content }];
      }
      case "tool_execution_end": {
        const call = this.#names.get(event.toolCallId);
        this.#names.delete(event.toolCallId);
        this.#announced.delete(event.toolCallId);
        const diffs = call === undefined || event.isError ? [] : toolDiffs(call.name, call.args);
        const content = diffs.length > 0 ? diffs : resultContent(event.result);
        return [
          {
            sessionUpdate: "tool_call_update",
            toolCallId: event.toolCallId,
            status: event.isError ? "failed" : "completed",
            content,
            rawOutput: event.result,
          },
        ];
      }
      case "session_info_changed":
        return [{ sessionUpdate: "session_info_update", title: event.name ?? null }];
      default:
        return [];
    }
  }

  #delta(step: AssistantMessageEvent): SessionUpdate[] {
    const messageId = this.#messageId === undefined ? {} : { messageId: this.#messageId };
    switch (step.type) {
      case "text_delta":
        return [
          {
            sessionUpdate: "agent_message_chunk",
            content: { type: "text", text: step.delta },
            ...messageId,
          },
        ];
      case "thinking_delta":
        return [
          {
            sessionUpdate: "agent_thought_chunk",
            content: { type: "text", text: step.delta },
            ...messageId,
          },
        ];
      case "toolcall_end": {
        const { id, name, arguments: args } = step.toolCall;
        this.#announced.add(id);
        this.#names.set(id, { name, args });
        return [{ sessionUpdate: "tool_call", ...toolCall(id, name, args), status: "pending" }];
      }
      default:
        return [];
    }
  }

  #userMessage(message: AgentMessage): SessionUpdate[] {
    if (message.role !== "user") return [];
    const text = userText(message);
    const own = this.#ownPrompts.indexOf(text);
    if (own !== -1) {
      this.#ownPrompts.splice(own, 1);
      return [];
    }
    return [{ sessionUpdate: "user_message_chunk", content: { type: "text", text } }];
  }
}
