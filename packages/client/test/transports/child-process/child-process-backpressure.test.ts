import assert from "node:assert/strict";
import { test } from "node:test";
import { resolveNode22 } from "@pi-kit/testing";
import { spawnPi } from "../../../src/process.ts";
import { frameReader } from "../../support/frame-reader.ts";

// A flood of 20,000 records of 1 kB (20 MB). The child reports on stderr how far its writes got:
// Node's stdout write returns false once the pipe is full, and "drain" waits for the reader.
const LINES = 20_000;
const FLOOD = `
const pad = "x".repeat(1000);
let i = 0;
function pump() {
  while (i < ${LINES}) {
    const ok = process.stdout.write(JSON.stringify({ type: "n", i: i++, pad }) + "\\n");
    if (!ok) { process.stderr.write("at " + i + "\\n"); process.stdout.once("drain", pump); return; }
  }
  process.stderr.write("done " + i + "\\n");
}
pump();
`;

/** The last progress line the child wrote to stderr, as a record count. */
function progress(stderr: string): number {
  const matches = [...stderr.matchAll(/(?:at|done) (\d+)\n/g)];
  return Number(matches.at(-1)?.[1] ?? 0);
}

test("child: with highWaterMark, an unread transport makes pi block instead of buffering", async () => {
  let stderr = "";
  const transport = await spawnPi({
    command: resolveNode22(),
    args: ["-e", FLOOD],
    highWaterMark: 4,
    onStderr: (text) => (stderr += text),
  });
  // Nobody reads for 500 ms: the child must stall with about one pipe's worth written.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const written = progress(stderr);
  assert.ok(written < 2_000, `the child wrote ${written} records while nobody read`);
  assert.doesNotMatch(stderr, /done/);

  // Reading resumes the flow; every record arrives once and in order.
  const reader = frameReader(transport.readable);
  let expected = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    assert.equal(typeof value, "string");
    const record = JSON.parse(value as string) as { i: number };
    assert.equal(record.i, expected);
    expected++;
  }
  assert.equal(expected, LINES);
  assert.equal((await transport.closed).exitCode, 0);
  assert.match(stderr, new RegExp(`done ${LINES}\\n`));
});

test("child: without highWaterMark, stdout is read eagerly (the default is unchanged)", async () => {
  let stderr = "";
  const transport = await spawnPi({
    command: resolveNode22(),
    args: ["-e", FLOOD],
    onStderr: (text) => (stderr += text),
  });
  const info = await transport.closed;
  assert.equal(info.exitCode, 0);
  assert.match(stderr, new RegExp(`done ${LINES}\\n`));
  // The frames wait in `readable`: drain them so the stream is released.
  const reader = frameReader(transport.readable);
  let count = 0;
  while (!(await reader.read()).done) count++;
  assert.equal(count, LINES);
});
