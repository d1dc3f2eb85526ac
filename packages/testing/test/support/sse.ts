/** Helpers for reading the scripted server's SSE output in tests. */

import type { CompletionChunk } from "../../src/index.ts";

/** A parsed stream: the chunks, whether `[DONE]` ended it, and the raw body. */
export interface ParsedStream {
  readonly chunks: CompletionChunk[];
  readonly done: boolean;
  readonly raw: string;
}

/** POSTs a chat completion request for `messages`. */
export function chat(
  baseUrl: string,
  messages: readonly unknown[],
  extra: Record<string, unknown> = {},
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model: "scripted",
      stream: true,
      stream_options: { include_usage: true },
      messages,
      ...extra,
    }),
    signal,
  });
}

/** Splits an SSE body into `data:` payloads (events are separated by a blank line). */
export function parseSse(raw: string): ParsedStream {
  const chunks: CompletionChunk[] = [];
  let done = false;
  for (const event of raw.split("\n\n")) {
    if (!event.startsWith("data: ")) continue;
    const data = event.slice("data: ".length);
    if (data === "[DONE]") done = true;
    else chunks.push(JSON.parse(data) as CompletionChunk);
  }
  return { chunks, done, raw };
}

/** Sends one user prompt and parses the whole stream. */
export async function ask(baseUrl: string, prompt: string): Promise<ParsedStream> {
  const response = await chat(baseUrl, [{ role: "user", content: prompt }]);
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  return parseSse(await response.text());
}

/** Concatenated `content` deltas. */
export function textOf(stream: ParsedStream): string {
  return stream.chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
}

/** Concatenated `reasoning_content` deltas. */
export function thinkingOf(stream: ParsedStream): string {
  return stream.chunks.map((c) => c.choices[0]?.delta.reasoning_content ?? "").join("");
}

/** The `finish_reason` that ended the stream. */
export function finishOf(stream: ParsedStream): string | null | undefined {
  return stream.chunks.map((c) => c.choices[0]?.finish_reason).find((r) => r);
}

/** Tool calls reassembled from their deltas, with the number of argument pieces each came in. */
export function toolCallsOf(
  stream: ParsedStream,
): { id: string; name: string; arguments: string; pieces: number }[] {
  const calls: { id: string; name: string; arguments: string; pieces: number }[] = [];
  for (const chunk of stream.chunks) {
    for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
      const call = calls[delta.index] ?? { id: "", name: "", arguments: "", pieces: 0 };
      calls[delta.index] = call;
      if (delta.id) call.id = delta.id;
      if (delta.function.name) call.name = delta.function.name;
      if (delta.function.arguments) {
        call.arguments += delta.function.arguments;
        call.pieces++;
      }
    }
  }
  return calls;
}
