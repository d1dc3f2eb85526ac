/**
 * Built-in scenarios: what each directive of the prompt language makes the scripted model answer.
 * @module
 */

import { unescapeArgument } from "./directives.ts";
import type { ReplyPart, ScenarioHandler, ScriptedReply } from "./types.ts";

/** Default pace and length of `[[slow]]`. */
const SLOW_DEFAULT = { delayMs: 50, ticks: 20 } as const;

/** Words cycled by `[[long N]]`. */
const LONG_WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"];

/**
 * Text for `[[unicode]]`, pre-chunked so that awkward characters sit on chunk edges:
 * U+2028/U+2029 (break naive line splitters), CRLF, a ZWJ emoji sequence split between
 * two chunks, astral emoji, CJK, combining marks, quotes and backslashes.
 */
export const UNICODE_CHUNKS: readonly string[] = [
  "Unicode: line\u2028sep",
  "\u2029para ",
  "crlf\r\nnext ",
  "emoji 😀 👩‍💻 ",
  "family 👨‍👩",
  "‍👧 ",
  "CJK 日本語 中文 한국어 ",
  "combining e\u0301 ",
  'quote " backslash \\ tab\t end',
];

function text(value: string | readonly string[]): ScriptedReply {
  return { parts: [{ type: "text", text: value }] };
}

function toolCall(name: string, args: Readonly<Record<string, unknown>>): ScriptedReply {
  const part: ReplyPart = { type: "tool_call", name, arguments: args };
  return { parts: [part] };
}

/** Splits `first rest...` at the first run of whitespace. */
function splitFirst(args: string): [string, string] {
  const match = /^(\S+)\s*([\s\S]*)$/.exec(args);
  return match ? [match[1] as string, match[2] as string] : ["", ""];
}

function parseSlow(args: string): { delayMs: number; ticks: number } {
  const delay = /(\d+)\s*ms/i.exec(args);
  const ticks = /x\s*(\d+)/i.exec(args);
  return {
    delayMs: delay ? Number(delay[1]) : SLOW_DEFAULT.delayMs,
    ticks: ticks ? Number(ticks[1]) : SLOW_DEFAULT.ticks,
  };
}

function parseFail(args: string): { status: number; times: number } {
  const status = /\b([45]\d\d)\b/.exec(args);
  const times = /x\s*(\d+)/i.exec(args);
  return {
    status: status ? Number(status[1]) : 503,
    times: /\balways\b/i.test(args) ? Number.POSITIVE_INFINITY : times ? Number(times[1]) : 1,
  };
}

/** The built-in directives, keyed by name. */
export const builtinScenarios: Readonly<Record<string, ScenarioHandler>> = {
  /** `[[text words]]`: plain streamed text (escapes `\n` etc. are expanded). */
  text: (args) => text(unescapeArgument(args)),
  /** `[[think words]]`: `reasoning_content` deltas before the rest of the reply. */
  think: (args) => ({
    parts: [{ type: "thinking", text: unescapeArgument(args) || "Let me think about this." }],
  }),
  /** `[[bash command]]`: a `bash` tool call. */
  bash: (args) => toolCall("bash", { command: args }),
  /** `[[read path]]`: a `read` tool call. */
  read: (args) => toolCall("read", { path: args }),
  /** `[[write path content]]`: a `write` tool call (content escapes expanded). */
  write: (args) => {
    const [path, content] = splitFirst(args);
    return toolCall("write", { path, content: unescapeArgument(content) });
  },
  /** `[[edit path old => new]]`: an `edit` tool call with one replacement. */
  edit: (args) => {
    const [path, rest] = splitFirst(args);
    const arrow = rest.indexOf("=>");
    const oldText = unescapeArgument((arrow < 0 ? rest : rest.slice(0, arrow)).trim());
    const newText = unescapeArgument(arrow < 0 ? "" : rest.slice(arrow + 2).trim());
    return toolCall("edit", { path, edits: [{ oldText, newText }] });
  },
  /** `[[tool name {json}]]`: a call to any tool, e.g. one an extension registers. */
  tool: (args) => {
    const [name, json] = splitFirst(args);
    return toolCall(name, json ? (JSON.parse(json) as Record<string, unknown>) : {});
  },
  /** `[[slow 50ms x 40]]`: 40 `tick N` chunks, and every chunk of the reply waits 50 ms. */
  slow: (args) => {
    const { delayMs, ticks } = parseSlow(args);
    const chunks = Array.from({ length: ticks }, (_, i) => `tick ${i + 1} `);
    return { ...text(chunks), chunkDelayMs: delayMs };
  },
  /** `[[long 2000]]`: that many words, one chunk each. */
  long: (args) => {
    const count = Number.parseInt(args, 10) || 500;
    const words = Array.from(
      { length: count },
      (_, i) => `${LONG_WORDS[i % LONG_WORDS.length]}${i + 1 < count ? " " : "."}`,
    );
    return text(words);
  },
  /** `[[fail 503 x2]]`: the first 2 requests with this prompt get HTTP 503; later ones go on. */
  fail: (args, { attempt }) => {
    const { status, times } = parseFail(args);
    if (attempt >= times) return undefined;
    const message = `Scripted ${status} (attempt ${attempt + 1})`;
    return { failure: { status, message } };
  },
  /** `[[unicode]]`: text full of edge cases, see {@link UNICODE_CHUNKS}. */
  unicode: () => text(UNICODE_CHUNKS),
};
