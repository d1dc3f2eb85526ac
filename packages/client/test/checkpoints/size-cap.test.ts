/**
 * The size cap of checkpoints: an untracked file over it is not snapshotted (the shadow
 * repository stays small) but is listed as changed, marked `tooLarge` with its size; reverting
 * or restoring one whose content was never kept is a typed `CheckpointError`, nothing changed.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { tree } from "../../../../test-support/git-tree.ts";
import { CheckpointError, Checkpoints } from "../../src/node.ts";

const CAP = 1024;
const tooLarge = (error: unknown, paths: string[]) =>
  error instanceof CheckpointError &&
  error.code === "too_large_to_restore" &&
  JSON.stringify(error.paths) === JSON.stringify(paths);

test("a file over the cap is listed as changed, never snapshotted, and never silently lost", async () => {
  const scratch = mkdtempSync(join(tmpdir(), "pi-kit-size-cap-"));
  try {
    const workspace = join(scratch, "workspace");
    const dir = join(scratch, "shadow");
    mkdirSync(workspace);
    writeFileSync(join(workspace, "small.txt"), "one\n");
    writeFileSync(join(workspace, "data.bin"), Buffer.alloc(4096, 1));
    const checkpoints = await Checkpoints.open({ workspace, dir, maxFileBytes: CAP });
    const start = await checkpoints.checkpoint("session start");
    assert.deepEqual(await checkpoints.changes(start.id), [], "unchanged: not listed");
    assert.deepEqual(await checkpoints.skipped(), ["data.bin"]);

    // Another big file appears, the first one changes, a small one changes.
    writeFileSync(join(workspace, "dump.sqlite"), Buffer.alloc(2048, 2));
    writeFileSync(join(workspace, "data.bin"), Buffer.alloc(5000, 3));
    writeFileSync(join(workspace, "small.txt"), "two\n");
    const big = (path: string, status: string, size: number) => ({
      path,
      status,
      additions: 0,
      deletions: 0,
      binary: false,
      tooLarge: true,
      size,
    });
    assert.deepEqual(await checkpoints.changes(start.id), [
      big("data.bin", "modified", 5000),
      big("dump.sqlite", "added", 2048),
      { path: "small.txt", status: "modified", additions: 1, deletions: 1, binary: false },
    ]);
    assert.equal(await checkpoints.diff(start.id, "data.bin"), "", "no diff of what was not kept");
    const run = await checkpoints.checkpoint("run 1");
    const objects = execFileSync(
      "git",
      ["cat-file", "--batch-all-objects", "--batch-check=%(objecttype) %(objectsize)"],
      { env: { ...process.env, GIT_DIR: join(dir, "git") }, encoding: "utf8" },
    );
    const blobs = objects.split("\n").filter((line) => line.startsWith("blob "));
    assert.deepEqual(
      blobs.map((line) => Number(line.split(" ")[1])).filter((size) => size > CAP),
      [],
      "the shadow repository holds no file over the cap",
    );

    // Reverting the modified big file cannot put it back: a typed error, the file untouched.
    await assert.rejects(checkpoints.revertFile(start.id, "data.bin"), (e) =>
      tooLarge(e, ["data.bin"]),
    );
    assert.equal(readFileSync(join(workspace, "data.bin")).length, 5000);
    // Restoring the session start would need it too: refused, nothing changed.
    const before = tree(workspace);
    await assert.rejects(checkpoints.restore(start.id), (e) => tooLarge(e, ["data.bin"]));
    assert.deepEqual(tree(workspace), before, "nothing changed");

    // An added big file reverts as any added file does: it goes.
    await checkpoints.revertFile(start.id, "dump.sqlite");
    assert.deepEqual(
      (await checkpoints.changes(start.id)).map((c) => `${c.status} ${c.path}`),
      ["modified data.bin", "modified small.txt"],
    );

    // Since run 1, nothing of data.bin changed; deleting it lists it deleted, with its size.
    rmSync(join(workspace, "data.bin"));
    assert.deepEqual(await checkpoints.changes(run.id), [
      big("data.bin", "deleted", 5000),
      big("dump.sqlite", "deleted", 2048),
    ]);
    await assert.rejects(checkpoints.restore(run.id), (e) =>
      tooLarge(e, ["data.bin", "dump.sqlite"]),
    );
    // Restoring a checkpoint where no big file differs works, and removes big files added since.
    writeFileSync(join(workspace, "data.bin"), Buffer.alloc(4096, 1));
    writeFileSync(join(workspace, "new-dump.bin"), Buffer.alloc(3000, 4));
    const again = await checkpoints.checkpoint("run 2");
    writeFileSync(join(workspace, "later.bin"), Buffer.alloc(3000, 5));
    writeFileSync(join(workspace, "small.txt"), "three\n");
    await checkpoints.restore(again.id);
    assert.deepEqual(await checkpoints.changes(again.id), []);
    assert.equal(readFileSync(join(workspace, "small.txt"), "utf8"), "two\n");
    assert.deepEqual(await checkpoints.skipped(), ["data.bin", "new-dump.bin"]);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
