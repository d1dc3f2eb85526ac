/**
 * Message assembly cost (issue 3, second item): one streamed assistant message of N text deltas
 * (message_start, text_start, N text_delta message_updates, text_end, message_end) applied to the
 * session model the way the client applies pi's events (`SessionModel.handleEvent`, which drives
 * the MessageAssembler). The events are built beforehand, so only assembly is timed. Linear
 * assembly makes 100k deltas cost 10x 10k deltas; a per-delta copy of the text would make it 100x.
 *
 * Before text_end the consumer reads the middle of the assembled text once, as a renderer would:
 * that flattens the engine's rope once (linear), which is the honest cost of reading it.
 *
 * There is no per-delta copy of the text (V8 keeps `text + delta` as a rope) and the block array
 * copied per delta has one entry. What makes 100k deltas cost a little more than 10x is the
 * garbage collector: a 10k-delta message dies young, while a 100k one keeps a long rope alive
 * across scavenges and gets it promoted. Repeated back to back (steady state) the cost per delta
 * is flat from 10k to 1M deltas.
 */

import { SessionModel } from "@pi-kit/client";
import type { AssistantMessage, RpcEvent, Usage } from "@pi-kit/protocol";
import { compareMs, quick, report } from "../lib/measure.ts";

const usage: Usage = {
  input: 20,
  output: 3,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 23,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** The events of one assistant message streamed as `deltas` text deltas of one word each. */
function messageEvents(deltas: number): { head: RpcEvent[]; body: RpcEvent[]; tail: RpcEvent[] } {
  const message = (text: string | undefined): AssistantMessage =>
    ({
      role: "assistant",
      content: text === undefined ? [] : [{ type: "text", text }],
      api: "openai-completions",
      provider: "pikit",
      model: "scripted",
      usage,
      stopReason: "stop",
      timestamp: 0,
    }) as AssistantMessage;
  const update = (step: Record<string, unknown>): RpcEvent =>
    ({ type: "message_update", usage, assistantMessageEvent: step }) as unknown as RpcEvent;
  const body: RpcEvent[] = [];
  const words: string[] = [];
  for (let i = 0; i < deltas; i++) {
    const delta = `w${i % 1000} `;
    words.push(delta);
    body.push(update({ type: "text_delta", contentIndex: 0, delta }));
  }
  const text = words.join("");
  return {
    head: [
      { type: "message_start", message: message(undefined) } as RpcEvent,
      update({ type: "text_start", contentIndex: 0 }),
    ],
    body,
    tail: [
      update({ type: "text_end", contentIndex: 0, content: text }),
      { type: "message_end", message: message(text) } as RpcEvent,
    ],
  };
}

const source = {
  getState: () => Promise.reject(new Error("no pi")),
  getMessages: () => Promise.reject(new Error("no pi")),
};
let sink = 0;

/** Applies one message's events to a fresh session model, reading the text once before text_end. */
function assemble(events: ReturnType<typeof messageEvents>): () => void {
  return () => {
    const model = new SessionModel(source);
    for (const event of events.head) model.handleEvent(event);
    for (const event of events.body) model.handleEvent(event);
    const streaming = model.getSnapshot().streamingMessage;
    const block = streaming?.role === "assistant" ? streaming.content[0] : undefined;
    const text = block?.type === "text" ? block.text : "";
    sink += text.charCodeAt(text.length >> 1);
    for (const event of events.tail) model.handleEvent(event);
    sink += model.getSnapshot().messages.length;
  };
}

const sizes = [1_000, 10_000, 100_000] as const;
const events = sizes.map(messageEvents);
// Check once that the assembled text is what the deltas spell (so nothing is skipped or lost).
{
  const model = new SessionModel(source);
  const [small] = events;
  if (small === undefined) throw new Error("no events");
  for (const event of [...small.head, ...small.body]) model.handleEvent(event);
  const streaming = model.getSnapshot().streamingMessage;
  const block = streaming?.role === "assistant" ? streaming.content[0] : undefined;
  const end = small.tail[0] as { assistantMessageEvent: { content: string } };
  if (block?.type !== "text" || block.text !== end.assistantMessageEvent.content) {
    throw new Error("assembled text differs from the deltas");
  }
}

const times = compareMs(
  {
    d1k: assemble(events[0] as ReturnType<typeof messageEvents>),
    d10k: assemble(events[1] as ReturnType<typeof messageEvents>),
    d100k: assemble(events[2] as ReturnType<typeof messageEvents>),
  },
  quick ? 5 : 15,
);
const perDelta = (ms: number, n: number) => ((ms * 1e6) / n).toFixed(0);
console.log(
  `1k deltas ${times.d1k.toFixed(2)} ms (${perDelta(times.d1k, 1e3)} ns/delta), 10k ${times.d10k.toFixed(2)} ms (${perDelta(times.d10k, 1e4)} ns/delta), 100k ${times.d100k.toFixed(1)} ms (${perDelta(times.d100k, 1e5)} ns/delta)`,
);

report("message assembly", [
  {
    name: "100k deltas vs 10k deltas (linear = 10x)",
    value: times.d100k / times.d10k,
    op: "<=",
    target: 13,
    unit: "x",
  },
  {
    name: "100k deltas vs 10k deltas, at least (linear = 10x)",
    value: times.d100k / times.d10k,
    op: ">=",
    target: 7,
    unit: "x",
  },
  {
    name: "10k deltas vs 1k deltas (informative)",
    value: times.d10k / times.d1k,
    op: "<=",
    target: 13,
    unit: "x",
  },
]);
if (sink < 0) console.log(sink);
