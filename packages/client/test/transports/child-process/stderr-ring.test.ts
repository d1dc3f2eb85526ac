import assert from "node:assert/strict";
import { test } from "node:test";
import { StderrRing } from "../../../src/transports/child-process/stderr-ring.ts";

const encode = (text: string) => new TextEncoder().encode(text);

test("ring: keeps everything while it fits", () => {
  const ring = new StderrRing(16);
  ring.push(encode("one\n"));
  ring.push(encode("two\n"));
  assert.equal(ring.text(), "one\ntwo\n");
});

test("ring: keeps only the last bytes, starting at a whole line", () => {
  const ring = new StderrRing(10);
  for (const line of ["alpha\n", "beta\n", "gamma\n", "delta\n"]) ring.push(encode(line));
  // The last 10 bytes are "amma\ndelta\n"[1..]: "mma\ndelta\n"; the cut line is dropped.
  assert.equal(ring.text(), "delta\n");
});

test("ring: a chunk larger than the ring keeps its tail", () => {
  const ring = new StderrRing(8);
  ring.push(encode("x\n"));
  ring.push(encode("0123456789\nabcdef\n"));
  assert.equal(ring.text(), "abcdef\n");
});

test("ring: one endless line is kept without a broken character", () => {
  const ring = new StderrRing(7);
  ring.push(encode("ééééééé"));
  const text = ring.text();
  assert.ok(!text.includes("\uFFFD"), JSON.stringify(text));
  assert.equal(text, "ééé");
});

test("ring: a zero-byte ring keeps nothing", () => {
  const ring = new StderrRing(0);
  ring.push(encode("lost\n"));
  assert.equal(ring.text(), "");
  assert.throws(() => new StderrRing(-1), RangeError);
});
