/**
 * A listing while no directory changed since the last one runs a single `git diff` (the quick
 * way); whatever makes a file come, go or become visible to git is still seen: a file written in
 * an empty directory or in one of only ignored files, a file over the size cap that shrinks
 * under it, a changed `.gitignore`.
 */
import assert from "node:assert/strict";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { Checkpoints } from "../../src/node.ts";

/** Moves every directory's modification time a minute back: older than the racy window. */
function settle(root: string): void {
  const past = new Date(Date.now() - 60_000);
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }))
      if (entry.isDirectory()) walk(join(dir, entry.name));
    utimesSync(dir, past, past);
  };
  walk(root);
}

test("quick listings still see every file that comes, goes or becomes visible", async () => {
  const scratch = mkdtempSync(join(tmpdir(), "pi-kit-quick-listing-"));
  try {
    const ws = join(scratch, "workspace");
    mkdirSync(join(ws, "empty/deeper"), { recursive: true });
    mkdirSync(join(ws, "logs"));
    mkdirSync(join(ws, "src"));
    writeFileSync(join(ws, ".gitignore"), "*.log\nsecret.txt\n");
    writeFileSync(join(ws, "logs/a.log"), "ignored\n");
    writeFileSync(join(ws, "src/a.ts"), "a\n");
    writeFileSync(join(ws, "big.bin"), Buffer.alloc(3000, 1));
    writeFileSync(join(ws, "secret.txt"), "ignored for now\n");
    const checkpoints = await Checkpoints.open({
      workspace: ws,
      dir: join(scratch, "shadow"),
      maxFileBytes: 1024,
    });
    const start = await checkpoints.checkpoint("session start");
    const listed = async () =>
      (await checkpoints.changes(start.id)).map((c) => `${c.status} ${c.path}`);
    const quickly = async (change: () => void, expected: string[]) => {
      settle(ws);
      await checkpoints.changes(start.id); // a full scan stamps the directories
      change();
      assert.deepEqual(await listed(), expected);
    };

    await quickly(() => writeFileSync(join(ws, "src/a.ts"), "a2\n"), ["modified src/a.ts"]);
    await quickly(
      () => writeFileSync(join(ws, "empty/deeper/new.txt"), "new\n"),
      ["added empty/deeper/new.txt", "modified src/a.ts"],
    );
    await quickly(
      () => writeFileSync(join(ws, "logs/b.txt"), "seen\n"),
      ["added empty/deeper/new.txt", "added logs/b.txt", "modified src/a.ts"],
    );
    await quickly(
      () => writeFileSync(join(ws, "big.bin"), "small now\n"),
      ["modified big.bin", "added empty/deeper/new.txt", "added logs/b.txt", "modified src/a.ts"],
    );
    await quickly(
      () => writeFileSync(join(ws, ".gitignore"), "*.log\n"),
      [
        "modified .gitignore",
        "modified big.bin",
        "added empty/deeper/new.txt",
        "added logs/b.txt",
        "added secret.txt",
        "modified src/a.ts",
      ],
    );
    assert.ok(statSync(join(ws, "logs/a.log")).isFile());
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
