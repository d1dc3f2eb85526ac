/**
 * The storage fence's file moves: the fenced name, the move itself, a repeat after a crash that
 * keeps the fenced file rather than a zombie's stray one, finding the latest fenced file, and the
 * file a takeover fences when the lease names none.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import {
  fencedFileName,
  fenceSessionFile,
  latestFencedFile,
  newestSessionFile,
} from "../../src/cluster/storage-fence.ts";

const scratch = mkdtempSync(join(tmpdir(), "pi-kit-fence-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
let count = 0;
const fresh = (): string => mkdtempSync(join(scratch, `d${count++}-`));

test("fencedFileName: same directory and stem, the fence in the name, an earlier fence replaced", () => {
  assert.equal(fencedFileName("/s/main/2026_abc.jsonl", 7), "/s/main/2026_abc.fence-7.jsonl");
  assert.equal(
    fencedFileName("/s/main/2026_abc.fence-7.jsonl", 9),
    "/s/main/2026_abc.fence-9.jsonl",
  );
});

test("fenceSessionFile: moves the file to its fenced name; the old path is free for a stray write", async () => {
  const dir = fresh();
  const file = join(dir, "s.jsonl");
  writeFileSync(file, '{"type":"session"}\n');
  const fenced = await fenceSessionFile(file, 3);
  assert.equal(fenced, join(dir, "s.fence-3.jsonl"));
  assert.equal(readFileSync(fenced, "utf8"), '{"type":"session"}\n');
  assert.equal(existsSync(file), false);
});

test("fenceSessionFile: repeated after a crash, keeps the fenced file and never takes a zombie's stray one", async () => {
  const dir = fresh();
  const file = join(dir, "s.jsonl");
  writeFileSync(file, "good\n");
  const fenced = await fenceSessionFile(file, 4);
  writeFileSync(file, "stray\n"); // a frozen old pi woke up and appended by path
  assert.equal(await fenceSessionFile(file, 4), fenced);
  assert.equal(readFileSync(fenced, "utf8"), "good\n");
  await assert.rejects(fenceSessionFile(join(dir, "missing.jsonl"), 4), { code: "ENOENT" });
});

test("latestFencedFile: the highest fence of the same stem, ignoring other sessions' files", async () => {
  const dir = fresh();
  for (const name of ["a.jsonl", "a.fence-2.jsonl", "a.fence-10.jsonl", "b.fence-99.jsonl"]) {
    writeFileSync(join(dir, name), "x\n");
  }
  assert.equal(await latestFencedFile(join(dir, "a.jsonl")), join(dir, "a.fence-10.jsonl"));
  assert.equal(await latestFencedFile(join(dir, "a.fence-2.jsonl")), join(dir, "a.fence-10.jsonl"));
  assert.equal(await latestFencedFile(join(dir, "c.jsonl")), undefined);
});

test("newestSessionFile: pi's file written last, never a zombie's headerless stray one", async () => {
  const dir = fresh();
  const at = (name: string, text: string, seconds: number): void => {
    writeFileSync(join(dir, name), text);
    utimesSync(join(dir, name), seconds, seconds);
  };
  at("old.jsonl", '{"type":"session","id":"a"}\n', 1_000);
  // pi's header with its keys in another order is still pi's.
  at("new.jsonl", '{"id":"b","version":3,"type":"session"}\n{"type":"message"}\n', 2_000);
  at("stray.jsonl", '{"type":"message","id":"late"}\n', 3_000);
  at("notes.txt", '{"type":"session"}\n', 4_000);
  assert.equal(await newestSessionFile(dir), join(dir, "new.jsonl"));
  assert.equal(await newestSessionFile(fresh()), undefined, "an empty session directory");
});
