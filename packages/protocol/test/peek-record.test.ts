/**
 * `peekRecord` against `JSON.parse`: the same `type` and `id` for any object, whatever the key
 * order, nesting or escaping, on pi's recorded transcripts of both release lines, and a defined
 * answer (never a throw) for text that is not a well-formed object.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { parseTranscript, peekRecord } from "@pi-kit/protocol";
import fc from "fast-check";

/** What `JSON.parse` says the routing fields are. */
function parsed(line: string): { type: string | undefined; id: string | number | undefined } {
  const value = JSON.parse(line) as Record<string, unknown>;
  return {
    type: typeof value.type === "string" ? value.type : undefined,
    id: typeof value.id === "string" || typeof value.id === "number" ? value.id : undefined,
  };
}

function peeked(line: string): { type: string | undefined; id: string | number | undefined } {
  const peek = peekRecord(line);
  assert.ok(peek, `not peeked as an object: ${line}`);
  return { type: peek.type, id: peek.id };
}

describe("peekRecord", () => {
  test("reads type and id whatever the key order", () => {
    for (const line of [
      '{"type":"response","id":"a"}',
      '{"id":"a","type":"response","command":"prompt","success":true}',
      '{"success":true,"data":{"type":"nested","id":"inner"},"type":"response","id":"a"}',
      '{"command":"get_state","data":[{"id":1},"x",{"type":"y"}],"id":7,"type":"response"}',
      ' \n{ "type" : "agent_start" , "id" : -3.5 }',
    ]) {
      assert.deepEqual(peeked(line), parsed(line), line);
    }
  });

  test("a nested type or id is never taken for the record's own", () => {
    const line = '{"message":{"type":"text","id":"m1"},"assistantMessageEvent":{"id":"t"}}';
    assert.deepEqual(peeked(line), { type: undefined, id: undefined });
  });

  test("strings with escapes, quotes and brackets inside are skipped whole", () => {
    const line = JSON.stringify({
      text: 'a "quoted" {not} [an] object\\',
      more: '\\\\"}',
      type: "message_update",
      id: 'x"y\\z',
    });
    assert.deepEqual(peeked(line), parsed(line));
  });

  test("escaped keys are compared decoded", () => {
    assert.equal(peekRecord('{"\\u0074ype":"response"}')?.type, "response");
  });

  test("a type or id of another JSON type reads as undefined", () => {
    assert.deepEqual(peeked('{"type":null,"id":true}'), { type: undefined, id: undefined });
    assert.deepEqual(peeked('{"type":{"a":1},"id":[1]}'), { type: undefined, id: undefined });
  });

  test("the first occurrence wins, as pi never repeats a key", () => {
    assert.equal(peekRecord('{"type":"a","type":"b"}')?.type, "a");
  });

  test("text that is not an object peeks as undefined", () => {
    for (const line of ["", "null", "[1]", '"x"', "42", "  true"]) {
      assert.equal(peekRecord(line), undefined, JSON.stringify(line));
    }
  });

  test("a malformed object answers as far as it is well-formed, never throwing", () => {
    assert.equal(peekRecord('{"type":"agent_start",')?.type, "agent_start");
    assert.equal(peekRecord('{"type":"agent_start",')?.id, undefined);
    assert.equal(peekRecord('{"a":{"b":1,"type":"x"')?.type, undefined);
    assert.equal(peekRecord('{"a" 1,"type":"x"}')?.type, undefined);
    assert.equal(peekRecord('{"type":"unterminated')?.type, undefined);
    assert.equal(peekRecord("{")?.type, undefined);
  });

  test("agrees with JSON.parse on arbitrary objects", () => {
    const key = fc.oneof(fc.constantFrom("type", "id", "data", "message"), fc.string());
    const field = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true }), fc.jsonValue());
    fc.assert(
      fc.property(fc.dictionary(key, field), fc.boolean(), (object, pretty) => {
        const line = JSON.stringify(object, null, pretty ? 2 : undefined);
        assert.deepEqual(peeked(line), parsed(line));
      }),
      { numRuns: 2000 },
    );
  });

  test("agrees with JSON.parse on every record of pi's recorded transcripts", () => {
    let count = 0;
    for (const release of ["pi-0.73.1", "pi-1.6.0"]) {
      const dir = new URL(`./fixtures/${release}/`, import.meta.url);
      for (const file of readdirSync(dir).filter((name) => name.endsWith(".jsonl"))) {
        for (const { record } of parseTranscript(readFileSync(new URL(file, dir), "utf8"))) {
          assert.deepEqual(peeked(record), parsed(record), `${release}/${file}: ${record}`);
          count++;
        }
      }
    }
    assert.ok(count > 100, `only ${count} records found`);
  });
});
