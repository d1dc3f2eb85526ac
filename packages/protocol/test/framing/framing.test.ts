import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  encodeRecord,
  JsonlDecoder,
  JsonlDecoderStream,
  type JsonlFrame,
  ProtocolError,
} from "@pi-kit/protocol";

const utf8 = new TextEncoder();

describe("JsonlDecoder", () => {
  test("splits on LF only and strips one trailing CR", () => {
    const decoder = new JsonlDecoder();
    assert.deepEqual(decoder.push('{"a":1}\n{"b":2}\r\n{"c"'), ['{"a":1}', '{"b":2}']);
    assert.deepEqual(decoder.push(":3}\r\r\n"), ['{"c":3}\r']);
    assert.deepEqual(decoder.end(), []);
  });

  test("never splits on U+2028, U+2029, CR alone or other separators", () => {
    const record = JSON.stringify({ text: "a\u2028b\u2029c\rd\u0085e\u000bf" });
    const decoder = new JsonlDecoder();
    assert.deepEqual(decoder.push(utf8.encode(`${record}\n`)), [record]);
  });

  test("keeps multi-byte UTF-8 intact when a chunk border cuts a character", () => {
    const record = '{"t":"😀中\u2028é"}';
    const bytes = utf8.encode(`${record}\n`);
    for (let cut = 1; cut < bytes.length; cut++) {
      const decoder = new JsonlDecoder();
      const out = [...decoder.push(bytes.subarray(0, cut)), ...decoder.push(bytes.subarray(cut))];
      assert.deepEqual(out, [record], `cut at ${cut}`);
    }
  });

  test("end() flushes an unterminated last record and strips its CR", () => {
    const decoder = new JsonlDecoder();
    assert.deepEqual(decoder.push('{"a":1}\n{"b":'), ['{"a":1}']);
    assert.deepEqual(decoder.push("2}\r"), []);
    assert.deepEqual(decoder.end(), ['{"b":2}']);
    assert.deepEqual(decoder.end(), []);
  });

  test("keeps empty lines as empty records, for the parser to report", () => {
    assert.deepEqual(new JsonlDecoder().push("\n\r\n{}\n"), ["", "", "{}"]);
  });

  test("an oversized record becomes an error and the decoder resynchronises at the next LF", () => {
    const errors: ProtocolError[] = [];
    const decoder = new JsonlDecoder({ maxRecordBytes: 10, onError: (e) => errors.push(e) });
    const records = [
      ...decoder.push('{"ok":1}\n{"big":"'),
      ...decoder.push("x".repeat(100)),
      ...decoder.push('"}\n{"ok":2}\n'),
    ];
    assert.deepEqual(records, ['{"ok":1}', '{"ok":2}']);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]?.code, "record_too_large");
    assert.ok(errors[0]?.raw?.startsWith('{"big":"'));
  });

  test("counts the limit in UTF-8 bytes for both bytes and text", () => {
    for (const input of ["ééééé\n", utf8.encode("ééééé\n")]) {
      const errors: ProtocolError[] = [];
      const atLimit = new JsonlDecoder({ maxRecordBytes: 10, onError: (e) => errors.push(e) });
      assert.deepEqual(atLimit.push(input), ["ééééé"]);
      const below = new JsonlDecoder({ maxRecordBytes: 9, onError: (e) => errors.push(e) });
      assert.deepEqual(below.push(input), []);
      assert.equal(errors.length, 1);
    }
  });

  test("without onError, push throws after the chunk and returns its records next time", () => {
    const decoder = new JsonlDecoder({ maxRecordBytes: 4 });
    assert.throws(() => decoder.push('{}\n{"long"}\n{}\n'), ProtocolError);
    assert.deepEqual(decoder.push("[]\n"), ["{}", "{}", "[]"]);
  });

  test("rejects a non-positive limit", () => {
    assert.throws(() => new JsonlDecoder({ maxRecordBytes: 0 }), RangeError);
  });
});

describe("JsonlDecoderStream", () => {
  test("decodes a byte stream and puts an error in place of an oversized record", async () => {
    const chunks = ['{"a":1}\n{"x":"', "yyyyyyyyyyyyyyyy", '"}\n{"b":', "2}"];
    const frames: JsonlFrame[] = [];
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(utf8.encode(chunk));
        controller.close();
      },
    });
    for await (const frame of source.pipeThrough(new JsonlDecoderStream({ maxRecordBytes: 12 }))) {
      frames.push(frame);
    }
    assert.equal(frames.length, 3);
    assert.equal(frames[0], '{"a":1}');
    assert.ok(frames[1] instanceof ProtocolError);
    assert.equal(frames[2], '{"b":2}');
  });
});

describe("encodeRecord", () => {
  test("writes JSON plus LF, with U+2028 and newlines escaped or kept inside the string", () => {
    const line = encodeRecord({ type: "prompt", message: "a\nb\u2028c" });
    assert.equal(line, '{"type":"prompt","message":"a\\nb\u2028c"}\n');
    assert.equal(line.indexOf("\n"), line.length - 1);
  });

  test("refuses what crashes pi: null, arrays, scalars, toJSON tricks, cycles", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const values: unknown[] = [
      null,
      undefined,
      [1],
      1,
      "x",
      true,
      { toJSON: () => null },
      cyclic,
      { n: 1n },
    ];
    for (const value of values) {
      assert.throws(
        () => encodeRecord(value),
        (error: unknown) => error instanceof ProtocolError && error.code === "unencodable",
      );
    }
  });
});
