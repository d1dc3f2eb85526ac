import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { type AgentMessage, parseInbound, parseTranscript, type RpcEvent } from "@pi-kit/protocol";
import {
  initialSessionState,
  reduceSessionEvent,
  type SessionModelState,
} from "../../src/session/session-reducer.ts";

const fixtures = new URL("../../../protocol/test/fixtures/", import.meta.url);

/** The events of one recorded transcript, in the order pi sent them. */
function recordedEvents(version: string, name: string): RpcEvent[] {
  const text = readFileSync(new URL(`${version}/${name}`, fixtures), "utf8");
  const events: RpcEvent[] = [];
  for (const entry of parseTranscript(text)) {
    if (entry.dir !== "in") continue;
    const inbound = parseInbound(entry.record);
    if (inbound.kind === "event") events.push(inbound.event);
  }
  return events;
}

/** What a UI shows of a message's blocks: text, thinking and tool calls, without signatures. */
function shown(message: AgentMessage | undefined): unknown[] | undefined {
  if (message?.role !== "assistant") return undefined;
  return message.content.map((block) => {
    if (block.type === "text") return { text: block.text };
    if (block.type === "thinking") return { thinking: block.thinking };
    return { id: block.id, name: block.name, arguments: block.arguments };
  });
}

/** The recorded transcripts of one pi version that hold at least one finished run. */
function runTranscripts(version: string): string[] {
  return readdirSync(new URL(`${version}/`, fixtures))
    .filter((name) => name.endsWith(".jsonl"))
    .filter((name) => recordedEvents(version, name).some((e) => e.type === "agent_end"))
    .sort();
}

for (const version of ["pi-0.73.1", "pi-1.6.0"]) {
  describe(`session reducer on ${version} transcripts`, () => {
    const names = runTranscripts(version);

    test("there are recorded runs to fold", () => {
      // text, thinking, unicode, bash-tool, abort and retry are recorded on both lines.
      assert.ok(names.length >= 6, `only ${names.length} transcripts with a run: ${names}`);
    });

    for (const name of names) {
      test(`${name}: the folded transcript holds the messages every agent_end reports`, () => {
        const events = recordedEvents(version, name);
        const reported: AgentMessage[] = [];
        let state: SessionModelState = initialSessionState();
        for (const event of events) {
          const before = state;
          state = reduceSessionEvent(state, event);
          const s = state.snapshot;
          if (event.type === "message_end" && event.message.role === "assistant") {
            // What the deltas assembled is what pi says the message was (pi adds signatures only here).
            assert.deepEqual(shown(before.snapshot.streamingMessage), shown(event.message));
            assert.equal(s.streamingMessage, undefined);
          }
          if (event.type === "agent_end") {
            reported.push(...event.messages);
            assert.deepEqual(s.messages.slice(-event.messages.length), event.messages);
            assert.equal(s.isStreaming, false);
          }
        }
        const { snapshot } = state;
        assert.deepEqual(snapshot.messages, reported);
        assert.equal(state.messageCount, reported.length);
        assert.equal(snapshot.streamingMessage, undefined);
        // Every tool call the transcript holds has run to its result.
        for (const message of snapshot.messages) {
          if (message.role !== "toolResult") continue;
          const execution = snapshot.toolExecutions.get(message.toolCallId);
          assert.equal(execution?.status, message.isError ? "error" : "done");
          assert.deepEqual(
            (execution?.result as { content?: unknown } | undefined)?.content,
            message.content,
          );
        }
      });
    }

    test("an event that changes nothing a UI sees returns the same state", () => {
      const state = initialSessionState();
      const events = recordedEvents(version, "text.jsonl");
      const turnStart = events.find((e) => e.type === "turn_start");
      assert.ok(turnStart !== undefined);
      assert.equal(reduceSessionEvent(state, turnStart), state);
      // Folding never edits a state: the first one is still empty after the whole transcript.
      events.reduce(reduceSessionEvent, state);
      assert.deepEqual(state.snapshot.messages, []);
      assert.equal(state.messageCount, 0);
    });
  });
}
