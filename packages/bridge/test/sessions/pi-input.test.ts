/**
 * What a session writes to pi: a client's records as lines, refused past the bound until pi's
 * stdin takes what was queued, and the bridge's own text as is, outside the bound.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { PiInput } from "../../src/sessions/pi-input.ts";

/** A stdin that takes nothing until the test lets it (`take()`), keeping what it took. */
function slowStdin() {
  const taken: string[] = [];
  const waiting: (() => void)[] = [];
  const stdin = new WritableStream<string>({
    write: (chunk) =>
      new Promise<void>((resolve) => {
        waiting.push(() => {
          taken.push(chunk);
          resolve();
        });
      }),
  });
  /** Lets the stdin take its next chunk; resolves once the writer has seen it taken. */
  const take = async (): Promise<void> => {
    while (waiting.length === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    waiting.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { stdin, taken, take };
}

test("pi-input: a write past the bound is refused until pi's stdin takes what was queued", async () => {
  const { stdin, taken, take } = slowStdin();
  const input = new PiInput(stdin, 10);
  assert.equal(input.write("aaaa"), true);
  assert.equal(input.write("bbbbbb"), true, "exactly at the bound");
  assert.equal(input.write("c"), false, "one past the bound");
  await take();
  assert.deepEqual(taken, ["aaaa\n"]);
  assert.equal(input.write("cccc"), true, "room again once pi took the first line");
  assert.equal(input.write("d"), false);
  await take();
  await take();
  assert.deepEqual(taken, ["aaaa\n", "bbbbbb\n", "cccc\n"]);
  assert.equal(input.write("dddddddddd"), true);
});

test("pi-input: a refused write writes nothing and is not input", async () => {
  const { stdin, taken, take } = slowStdin();
  const input = new PiInput(stdin, 4);
  assert.equal(input.write("abcd"), true);
  const before = input.lastInputAt;
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(input.write("e"), false);
  assert.equal(input.lastInputAt, before);
  await take();
  assert.deepEqual(taken, ["abcd\n"]);
  assert.equal(input.write("e"), true);
  assert.ok(input.lastInputAt > before);
});

test("pi-input: the bound frees what a failed write held (pi is gone)", async () => {
  let fail: ((error: Error) => void) | undefined;
  const stdin = new WritableStream<string>({
    write: () =>
      new Promise<void>((_, reject) => {
        fail = reject;
      }),
  });
  const input = new PiInput(stdin, 4);
  assert.equal(input.write("abcd"), true);
  assert.equal(input.write("e"), false);
  while (fail === undefined) await new Promise((resolve) => setTimeout(resolve, 0));
  fail(new Error("EPIPE"));
  await new Promise((resolve) => setTimeout(resolve, 0));
  // The stream has errored: the next write fails too, but the bound no longer holds it back.
  assert.equal(input.write("e"), true);
});

test("pi-input: the bridge's own text goes as is, past the bound, and is not a client's input", async () => {
  const { stdin, taken, take } = slowStdin();
  const input = new PiInput(stdin, 4);
  assert.equal(input.write("abcd"), true);
  const lastInput = input.lastInputAt;
  const raw = input.writeRaw('{"type":"get_state","id":"x"}\n');
  assert.equal(input.write("e"), false, "the bridge's text does not free the bound");
  await take();
  await take();
  await raw;
  assert.deepEqual(taken, ["abcd\n", '{"type":"get_state","id":"x"}\n']);
  assert.equal(input.lastInputAt, lastInput);
  assert.equal(input.write("efgh"), true, "nor does it count toward it");
});

/** A task the test ends (`done()`), and whether it started. */
function gate() {
  let done!: () => void;
  const state = { started: false };
  const ended = new Promise<void>((resolve) => (done = resolve));
  const task = () => {
    state.started = true;
    return ended;
  };
  return { task, done, state };
}

/** A stdin that takes everything at once, keeping what it took. */
function openStdin() {
  const taken: string[] = [];
  return { stdin: new WritableStream<string>({ write: (chunk) => void taken.push(chunk) }), taken };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test("pi-input: records wait for a hold (a checkpoint) and go to pi in the order they came", async () => {
  const { stdin, taken } = openStdin();
  const input = new PiInput(stdin, 1000);
  const start = gate();
  const run = gate();
  input.hold(start.task);
  assert.equal(input.holding, true);
  input.write("a");
  // A prompt asks for a hold of its own: it goes after "a", the records after it after it.
  assert.equal(input.hold(run.task, "prompt"), true);
  input.write("b");
  await settle();
  assert.deepEqual(taken, [], "nothing passes while the first hold is on");
  assert.equal(run.state.started, false, "the second hold waits for the first");
  start.done();
  await settle();
  assert.deepEqual(taken, ["a\n"]);
  assert.equal(run.state.started, true);
  input.write("c");
  run.done();
  await settle();
  assert.deepEqual(taken, ["a\n", "prompt\n", "b\n", "c\n"]);
  assert.equal(input.holding, false);
  input.write("d");
  await settle();
  assert.deepEqual(taken.at(-1), "d\n", "written at once once no hold is on");
});

test("pi-input: a failed hold still lets what waited through; held lines count against the bound", async () => {
  const { stdin, taken } = openStdin();
  const input = new PiInput(stdin, 10);
  const failing = () => Promise.reject(new Error("git is not there"));
  assert.equal(input.hold(failing, "12345678"), true);
  assert.equal(input.write("abc"), false, "the held prompt counts");
  assert.equal(input.hold(failing, "abcdefghijk"), false, "a prompt past the bound is refused");
  await settle();
  await settle();
  assert.deepEqual(taken, ["12345678\n"]);
  assert.equal(input.holding, false);
});
