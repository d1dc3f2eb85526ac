import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import {
  EVENTS_ADDED_IN_V1,
  type InboundKind,
  isDialogMethod,
  parseInbound,
  parseTranscript,
  validateCommand,
  validateUiResponse,
} from "@pi-kit/protocol";

/**
 * Record types pi writes that this package deliberately leaves as `unknown`. Empty: every type
 * in the recorded transcripts is known. Add an entry (with the reason) rather than widening the
 * known unions for a type we cannot describe yet.
 */
const DOCUMENTED_UNKNOWN_TYPES: ReadonlySet<string> = new Set<string>([]);

/** Kinds each recorded scenario must contain, by file stem (both versions). */
const EXPECTED_KINDS: Readonly<Record<string, readonly InboundKind[]>> = {
  abort: ["response", "event"],
  "bash-command": ["response"],
  "bash-tool": ["response", "event"],
  "extension-dialog": ["response", "ui_request"],
  retry: ["response", "event"],
  text: ["response", "event"],
  thinking: ["response", "event"],
  unicode: ["response", "event"],
};

const VERSIONS = ["pi-1.6.0", "pi-0.73.1"] as const;
const v1Only: ReadonlySet<string> = new Set(EVENTS_ADDED_IN_V1);

function transcripts(version: string): string[] {
  const dir = new URL(`./fixtures/${version}/`, import.meta.url);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl"))
    .sort();
}

for (const version of VERSIONS) {
  describe(`golden transcripts: ${version}`, () => {
    const files = transcripts(version);
    if (files.length === 0) {
      test("no transcripts recorded yet", () => {});
      return;
    }
    for (const file of files) {
      test(file, () => {
        const url = new URL(`./fixtures/${version}/${file}`, import.meta.url);
        const entries = parseTranscript(readFileSync(url, "utf8"));
        const kinds = new Set<InboundKind>();
        const eventTypes = new Set<string>();
        const sentIds = new Set<unknown>();
        const answeredIds = new Set<unknown>();
        const dialogIds = new Set<string>();
        const uiAnswers = new Set<string>();
        for (const entry of entries) {
          const where = `${file} @${entry.t}: ${entry.record.slice(0, 160)}`;
          if (entry.dir === "out") {
            const value = JSON.parse(entry.record) as { type?: unknown; id?: unknown };
            if (value.type === "extension_ui_response") {
              assert.equal(validateUiResponse(value), undefined, where);
              uiAnswers.add(String(value.id));
            } else {
              assert.equal(validateCommand(value), undefined, where);
              if (value.id !== undefined) sentIds.add(value.id);
            }
            continue;
          }
          const message = parseInbound(entry.record);
          kinds.add(message.kind);
          assert.notEqual(message.kind, "error", where);
          switch (message.kind) {
            case "unknown":
              assert.ok(DOCUMENTED_UNKNOWN_TYPES.has(message.value.type), `undocumented: ${where}`);
              break;
            case "event":
              eventTypes.add(message.event.type);
              if (version === "pi-0.73.1") assert.ok(!v1Only.has(message.event.type), where);
              if (version === "pi-1.6.0" && message.event.type === "message_update") {
                // 1.x dropped the quadratic snapshots.
                assert.equal(message.event.message, undefined, where);
                assert.equal(message.event.assistantMessageEvent.partial, undefined, where);
              }
              break;
            case "response":
              if (message.response.id !== undefined) {
                assert.ok(sentIds.has(message.response.id), `unmatched id: ${where}`);
                answeredIds.add(message.response.id);
              }
              break;
            case "ui_request":
              if (isDialogMethod(message.request.method)) dialogIds.add(message.request.id);
              break;
          }
        }
        assert.ok(
          entries.some((entry) => entry.dir === "in"),
          `${file} has no inbound records`,
        );
        for (const id of sentIds)
          assert.ok(answeredIds.has(id), `${file}: command ${id} unanswered`);
        for (const id of dialogIds)
          assert.ok(uiAnswers.has(id), `${file}: dialog ${id} unanswered`);
        for (const kind of EXPECTED_KINDS[file.replace(/\.jsonl$/, "")] ?? []) {
          assert.ok(kinds.has(kind), `${file} has no ${kind}`);
        }
        if (version === "pi-1.6.0" && eventTypes.has("agent_start")) {
          assert.ok(eventTypes.has("agent_settled"), `${file}: a 1.x run ends with agent_settled`);
        }
      });
    }
  });
}
