/**
 * A workspace inside a git repository (pi working in `repo/packages/app`) inherits the `.gitignore`
 * rules of the directories above it: its checkpoints leave out what the repository ignores.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { rebaseIgnores } from "../../src/checkpoints/inherited-ignores.ts";
import { Checkpoints } from "../../src/node.ts";

test("rules seen from a subdirectory: any-depth rules stay, rules anchored under it are re-anchored", () => {
  const root = [
    "# build output",
    "node_modules/",
    "*.log",
    "!keep.log",
    "**/coverage",
    "/packages/app/dist/",
    "packages/app/.cache",
    "!/packages/app/dist/keep.txt",
    "/packages/other/dist/",
    "/top-only",
    "packages/*/tmp",
    "/packages/app",
    "",
  ].join("\n");
  assert.equal(
    rebaseIgnores(root, "packages/app"),
    [
      "node_modules/",
      "*.log",
      "!keep.log",
      "**/coverage",
      "/dist/",
      "/.cache",
      "!/dist/keep.txt",
      "",
    ].join("\n"),
  );
});

test("checkpoints of a workspace inside a repository leave out what the repository ignores", async () => {
  const scratch = mkdtempSync(join(tmpdir(), "pi-kit-inherited-ignores-"));
  try {
    const repo = join(scratch, "repo");
    const workspace = join(repo, "packages", "app");
    mkdirSync(join(repo, ".git"), { recursive: true });
    mkdirSync(join(workspace, "src"), { recursive: true });
    writeFileSync(join(repo, ".gitignore"), "node_modules/\n/packages/app/dist/\n");
    writeFileSync(join(repo, "packages", ".gitignore"), "*.tmp\n");
    writeFileSync(join(workspace, "src/a.ts"), "a\n");
    const checkpoints = await Checkpoints.open({ workspace, dir: join(scratch, "shadow") });
    const start = await checkpoints.checkpoint("session start");
    mkdirSync(join(workspace, "node_modules/lib"), { recursive: true });
    writeFileSync(join(workspace, "node_modules/lib/index.js"), "x\n");
    mkdirSync(join(workspace, "dist"));
    writeFileSync(join(workspace, "dist/out.js"), "x\n");
    writeFileSync(join(workspace, "scratch.tmp"), "x\n");
    writeFileSync(join(workspace, "src/b.ts"), "b\n");
    assert.deepEqual(
      (await checkpoints.changes(start.id)).map((c) => `${c.status} ${c.path}`),
      ["added src/b.ts"],
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
