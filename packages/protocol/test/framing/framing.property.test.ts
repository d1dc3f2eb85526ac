import assert from "node:assert/strict";
import { test } from "node:test";
import { JsonlDecoder } from "@pi-kit/protocol";
import fc from "fast-check";

const utf8 = new TextEncoder();

/** The obvious, quadratic-but-correct reference: decode everything, split on LF, strip one CR. */
function reference(bytes: Uint8Array): string[] {
  const lines = new TextDecoder().decode(bytes).split("\n");
  const last = lines.pop();
  if (last !== undefined && last !== "") lines.push(last);
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

function decodeInPieces(bytes: Uint8Array, cuts: number[]): string[] {
  const decoder = new JsonlDecoder();
  const out: string[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    out.push(...decoder.push(bytes.subarray(from, cut)));
    from = cut;
  }
  out.push(...decoder.end());
  return out;
}

/** Characters that stress the framer: separators, CR, and 2-, 3- and 4-byte UTF-8. */
const tricky = fc.constantFrom(
  "a",
  "\r",
  "\u2028",
  "\u2029",
  "é",
  "中",
  "😀",
  "𝄞",
  '"',
  "\\",
  "\u0085",
);
const recordText = fc
  .array(fc.oneof(tricky, fc.string({ maxLength: 4 })), { maxLength: 12 })
  .map((parts) => parts.join("").replaceAll("\n", ""));
const stream = fc.record({
  records: fc.array(recordText, { maxLength: 12 }),
  crlf: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
  terminated: fc.boolean(),
});

test("matches the reference on random record streams cut at random places", () => {
  fc.assert(
    fc.property(
      stream,
      fc.array(fc.nat(), { maxLength: 16 }),
      ({ records, crlf, terminated }, rawCuts) => {
        let text = records.map((r, i) => r + (crlf[i] ? "\r\n" : "\n")).join("");
        if (!terminated && text.endsWith("\n")) text = text.slice(0, -1);
        const bytes = utf8.encode(text);
        const cuts = [...new Set(rawCuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        assert.deepEqual(decodeInPieces(bytes, cuts), reference(bytes));
      },
    ),
    { numRuns: 500 },
  );
});

test("a 4-byte character split at every offset, inside records of every position", () => {
  const text = '{"x":"𝄞"}\n{"y":"😀😀"}\r\n{"z":"\u2028"}\n';
  const bytes = utf8.encode(text);
  for (let a = 0; a <= bytes.length; a++) {
    for (let b = a; b <= bytes.length; b++) {
      assert.deepEqual(decodeInPieces(bytes, [a, b]), reference(bytes), `cuts ${a},${b}`);
    }
  }
});

test("text chunks give the same records as byte chunks", () => {
  fc.assert(
    fc.property(
      fc.array(recordText, { maxLength: 8 }),
      fc.array(fc.nat(), { maxLength: 8 }),
      (records, rawCuts) => {
        const text = records.map((r) => `${r}\n`).join("");
        const cuts = [...new Set(rawCuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const decoder = new JsonlDecoder();
        const out: string[] = [];
        let from = 0;
        for (const cut of [...cuts, text.length]) {
          // Never cut a surrogate pair in text input: a JS string chunk cannot hold half a character.
          const safe = cut > 0 && /[\ud800-\udbff]/.test(text[cut - 1] ?? "") ? cut + 1 : cut;
          if (safe <= from) continue;
          out.push(...decoder.push(text.slice(from, safe)));
          from = safe;
        }
        out.push(...decoder.end());
        assert.deepEqual(out, reference(utf8.encode(text)));
      },
    ),
    { numRuns: 300 },
  );
});

test("oversized records never leak into the output and never break the next record", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.boolean(), recordText), { maxLength: 10 }),
      fc.array(fc.nat(), { maxLength: 10 }),
      (spec, rawCuts) => {
        const max = 20;
        const lines = spec.map(([big, r]) =>
          big ? `${r}${"x".repeat(max + 1)}` : Array.from(r).slice(0, 4).join(""),
        );
        const bytes = utf8.encode(lines.map((l) => `${l}\n`).join(""));
        const cuts = [...new Set(rawCuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const errors: unknown[] = [];
        const decoder = new JsonlDecoder({ maxRecordBytes: max, onError: (e) => errors.push(e) });
        const out: string[] = [];
        let from = 0;
        for (const cut of [...cuts, bytes.length]) {
          out.push(...decoder.push(bytes.subarray(from, cut)));
          from = cut;
        }
        // The limit counts the record as received: without its LF, with any CR.
        const expected = lines.filter((l) => utf8.encode(l).length <= max);
        const oversized = lines.length - expected.length;
        assert.deepEqual(
          out,
          expected.map((l) => l.replace(/\r$/, "")),
        );
        assert.equal(errors.length, oversized);
      },
    ),
    { numRuns: 300 },
  );
});
