/**
 * `MessageAssembler` on pi's recorded transcripts of both release lines: folding each
 * `message_start` and its `message_update` deltas gives, at `message_end`, the content pi says the
 * message has; after `invalidate()` later deltas never corrupt the frozen text.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import {
  type AgentMessage,
  MessageAssembler,
  parseInbound,
  parseTranscript,
  type RpcEvent,
} from "@pi-kit/protocol";

/** pi's events of one recorded transcript, in order. */
function events(release: string, file: string): RpcEvent[] {
  const text = readFileSync(new URL(`../fixtures/${release}/${file}`, import.meta.url), "utf8");
  const out: RpcEvent[] = [];
  for (const { dir, record } of parseTranscript(text)) {
    if (dir !== "in") continue;
    const message = parseInbound(record);
    if (message.kind === "event") out.push(message.event);
  }
  return out;
}

/** Only what a renderer shows: the blocks' kinds and text, not the timestamps or usage. */
function shown(message: AgentMessage | undefined): unknown {
  if (message?.role !== "assistant") return message?.role;
  return message.content.map((block) =>
    block.type === "text"
      ? { text: block.text }
      : block.type === "thinking"
        ? { thinking: block.thinking }
        : { tool: block.name, arguments: block.arguments },
  );
}

describe("MessageAssembler", () => {
  for (const release of ["pi-0.73.1", "pi-1.6.0"]) {
    const dir = new URL(`../fixtures/${release}/`, import.meta.url);
    for (const file of readdirSync(dir).filter((name) => name.endsWith(".jsonl"))) {
      test(`${release}/${file}: the assembled message equals message_end's`, () => {
        const assembler = new MessageAssembler();
        let ended = 0;
        for (const event of events(release, file)) {
          if (event.type === "message_start") assembler.start(event.message);
          else if (event.type === "message_update") assembler.update(event);
          else if (event.type === "message_end") {
            if (event.message.role === "assistant") {
              assert.deepEqual(shown(assembler.current), shown(event.message));
              ended++;
            }
            assembler.end();
            assert.equal(assembler.current, undefined);
          }
        }
        assert.ok(ended > 0 || !file.includes("text"), "a text transcript streams a message");
      });
    }
  }

  test("after invalidate(), deltas leave the message frozen until the next start", () => {
    const assembler = new MessageAssembler();
    const text = events("pi-1.6.0", "text.jsonl");
    const start = text.find(
      (event) => event.type === "message_start" && event.message.role === "assistant",
    );
    const updates = text.filter((event) => event.type === "message_update");
    assert.ok(start?.type === "message_start" && updates.length > 2);
    assembler.start(start.message);
    const [first, ...rest] = updates;
    if (first?.type === "message_update") assembler.update(first);
    const frozen = shown(assembler.current);
    assembler.invalidate();
    for (const event of rest) if (event.type === "message_update") assembler.update(event);
    assert.deepEqual(shown(assembler.current), frozen);
  });
});
