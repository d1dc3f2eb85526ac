/**
 * Turns a scripted reply into OpenAI `chat.completion.chunk` objects, the way a streaming
 * provider would: text and reasoning in word-sized deltas, tool arguments in several pieces.
 * @module
 */

import type { ScriptedReply } from "./types.ts";

/** Default number of pieces a tool call's JSON arguments are streamed in. */
export const DEFAULT_ARGUMENT_PIECES = 4;

/** The delta of one streamed chunk. */
export interface ChunkDelta {
  readonly role?: "assistant";
  readonly content?: string;
  readonly reasoning_content?: string;
  readonly tool_calls?: readonly {
    readonly index: number;
    readonly id?: string;
    readonly type?: "function";
    readonly function: { readonly name?: string; readonly arguments: string };
  }[];
}

/** One `chat.completion.chunk` as sent on the wire. */
export interface CompletionChunk {
  readonly id: string;
  readonly object: "chat.completion.chunk";
  readonly created: number;
  readonly model: string;
  readonly choices: readonly {
    readonly index: 0;
    readonly delta: ChunkDelta;
    readonly finish_reason: string | null;
  }[];
  readonly usage?: {
    readonly prompt_tokens: number;
    readonly completion_tokens: number;
    readonly total_tokens: number;
  };
}

/** Identity of one completion, shared by all of its chunks. */
export interface CompletionIdentity {
  /** Completion id, e.g. `chatcmpl-3`. */
  readonly id: string;
  /** Model id echoed from the request. */
  readonly model: string;
  /** Prefix of tool call ids; call `i` gets `<prefix>_<i>`. */
  readonly toolCallPrefix: string;
  /** Prompt token count reported in the usage chunk, or undefined for no usage chunk. */
  readonly promptTokens?: number;
}

/** Splits text into word-sized chunks, each keeping its trailing whitespace. */
export function splitWords(text: string): string[] {
  return text.match(/\s*\S+\s*|\s+/g) ?? [];
}

/** Cuts `text` into at most `pieces` parts of similar length, never inside a code point. */
export function splitPieces(text: string, pieces: number): string[] {
  const points = Array.from(text);
  const size = Math.max(1, Math.ceil(points.length / Math.max(1, pieces)));
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(""));
  return out;
}

function chunksOf(text: string | readonly string[]): readonly string[] {
  return typeof text === "string" ? splitWords(text) : text;
}

/** All chunks of one streamed completion, the usage chunk last when `promptTokens` is set. */
export function completionChunks(
  reply: ScriptedReply,
  identity: CompletionIdentity,
): CompletionChunk[] {
  const deltas: ChunkDelta[] = [];
  let toolIndex = 0;
  for (const part of reply.parts ?? []) {
    if (part.type === "text") {
      for (const content of chunksOf(part.text)) deltas.push({ content });
    } else if (part.type === "thinking") {
      for (const reasoning_content of chunksOf(part.text)) deltas.push({ reasoning_content });
    } else {
      const index = toolIndex++;
      const id = part.id ?? `${identity.toolCallPrefix}_${index}`;
      const json = JSON.stringify(part.arguments);
      const pieces = splitPieces(json, reply.argumentPieces ?? DEFAULT_ARGUMENT_PIECES);
      // Like OpenAI: the first delta names the call with empty arguments, the rest carry only pieces.
      deltas.push({
        tool_calls: [{ index, id, type: "function", function: { name: part.name, arguments: "" } }],
      });
      for (const piece of pieces) {
        deltas.push({ tool_calls: [{ index, function: { arguments: piece } }] });
      }
    }
  }
  const finish = reply.finishReason ?? (toolIndex > 0 ? "tool_calls" : "stop");
  const base = {
    id: identity.id,
    object: "chat.completion.chunk",
    created: 0,
    model: identity.model,
  } as const;
  const chunks: CompletionChunk[] = [
    {
      ...base,
      choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
    },
    ...deltas.map((delta) => ({
      ...base,
      choices: [{ index: 0, delta, finish_reason: null }] as const,
    })),
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] },
  ];
  if (identity.promptTokens !== undefined) {
    chunks.push({
      ...base,
      choices: [],
      usage: {
        prompt_tokens: identity.promptTokens,
        completion_tokens: deltas.length,
        total_tokens: identity.promptTokens + deltas.length,
      },
    });
  }
  return chunks;
}
