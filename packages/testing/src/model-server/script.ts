/**
 * Chooses the scripted reply for a chat request: directives in the last user message,
 * a summary after tool results, or an echo.
 * @module
 */

import { parseDirectives } from "./directives.ts";
import type {
  ChatMessage,
  ChatRequest,
  ReplyPart,
  ScenarioHandler,
  ScriptedFailure,
  ScriptedReply,
} from "./types.ts";

/** How much of a tool's output the follow-up answer quotes. */
const QUOTE_LIMIT = 200;

/** Plain text of a message's `content` (a string or an array of `{type:"text"}` parts). */
export function messageText(message: ChatMessage | undefined): string {
  const content = message?.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) =>
      typeof part === "object" && part !== null && "text" in part && typeof part.text === "string"
        ? part.text
        : "",
    )
    .join("");
}

/** Text of the last `user` message, which is what directives are read from. */
export function lastUserPrompt(request: ChatRequest): string {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i];
    if (message?.role === "user") return messageText(message);
  }
  return "";
}

/** The final answer after tool results, quoting each result so tests can see it came back. */
function toolResultReply(request: ChatRequest): ScriptedReply {
  const messages = request.messages;
  const results: ChatMessage[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]?.role === "tool"; i--) {
    results.unshift(messages[i] as ChatMessage);
  }
  const names = new Map<string, string>();
  for (const message of messages) {
    for (const call of message.tool_calls ?? []) {
      if (call.id && call.function?.name) names.set(call.id, call.function.name);
    }
  }
  const quotes = results.map((result) => {
    const name = names.get(result.tool_call_id ?? "") ?? "tool";
    const output = messageText(result).trim();
    const quoted = output.length > QUOTE_LIMIT ? `${output.slice(0, QUOTE_LIMIT)}…` : output;
    return `Tool ${name} returned: ${quoted}`;
  });
  return { parts: [{ type: "text", text: quotes.join("\n") }] };
}

/** Concatenates partial replies: parts in order, the first failure, the slowest pace. */
function merge(replies: readonly ScriptedReply[]): ScriptedReply {
  const parts: ReplyPart[] = [];
  let failure: ScriptedFailure | undefined;
  let chunkDelayMs = 0;
  let argumentPieces: number | undefined;
  let finishReason: string | undefined;
  for (const reply of replies) {
    parts.push(...(reply.parts ?? []));
    failure ??= reply.failure;
    chunkDelayMs = Math.max(chunkDelayMs, reply.chunkDelayMs ?? 0);
    argumentPieces = reply.argumentPieces ?? argumentPieces;
    finishReason = reply.finishReason ?? finishReason;
  }
  return { parts, failure, chunkDelayMs, argumentPieces, finishReason };
}

/**
 * Scripts the reply to `request`. `attempt` counts earlier requests with the same prompt
 * (it drives `[[fail]]`). `prompts` maps whole prompts (trimmed) to the directives they stand
 * for, so a user can type natural language and still get a scripted behaviour.
 */
export function scriptReply(
  request: ChatRequest,
  scenarios: Readonly<Record<string, ScenarioHandler>>,
  attempt: number,
  prompts: Readonly<Record<string, string>> = {},
): ScriptedReply {
  if (request.messages.at(-1)?.role === "tool") return toolResultReply(request);
  const typed = lastUserPrompt(request);
  const prompt = Object.hasOwn(prompts, typed.trim()) ? (prompts[typed.trim()] as string) : typed;
  const replies: ScriptedReply[] = [];
  for (const directive of parseDirectives(prompt)) {
    const handler = Object.hasOwn(scenarios, directive.name)
      ? scenarios[directive.name]
      : undefined;
    if (!handler) {
      const known = Object.keys(scenarios).sort().join(", ");
      replies.push({
        parts: [
          { type: "text", text: `Unknown directive [[${directive.name}]]. Known: ${known}.` },
        ],
      });
      continue;
    }
    const reply = handler(directive.args, { request, prompt, attempt });
    if (reply) replies.push(reply);
  }
  const merged = merge(replies);
  if (merged.failure || (merged.parts?.length ?? 0) > 0) return merged;
  return { ...merged, parts: [{ type: "text", text: `Echo: ${prompt}` }] };
}
