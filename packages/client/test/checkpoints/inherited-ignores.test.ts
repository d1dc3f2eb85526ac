/**
 * A workspace inside a git repository (pi working in `repo/packages/app`) inherits the `.gitignore`
 * rules of the directories above it: its checkpoints leave out what the repository ignores.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { git, gitChanges, mirrorInto } from "../../../../test-support/git-tree.ts";
import { rebaseIgnores } from "../../src/checkpoints/inherited-ignores.ts";
import { segmentMatches } from "../../src/checkpoints/wildmatch.ts";
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
    "pack?ges/[a-c]pp/gen/",
    "packages/[!a]pp/never",
    "**/app/out",
    "packages/**/cache",
    "trailing-space\\ ",
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
      "/tmp",
      "/gen/",
      "/**/app/out",
      "/app/out",
      "/out",
      "/**/cache",
      "/cache",
      "trailing-space\\ ",
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

test("one glob segment matches as git's wildmatch does", () => {
  const cases: Array<[string, string, boolean]> = [
    ["*.log", "a.log", true],
    ["*.log", "a.txt", false],
    ["?pp", "app", true],
    ["[a-c]pp", "bpp", true],
    ["[!a-c]pp", "bpp", false],
    ["[^a]pp", "xpp", true],
    ["[[:digit:]]x", "7x", true],
    ["[]]x", "]x", true],
    ["\\*x", "*x", true],
    ["\\*x", "ax", false],
    ["a.b", "axb", false],
    ["[", "[", true],
  ];
  for (const [glob, name, expected] of cases)
    assert.equal(segmentMatches(glob, name), expected, `${glob} on ${name}`);
});

/**
 * The acceptance: wildcards, nested and inherited `.gitignore` files and negations as git applies
 * them. The workspace is `repo/packages/app`; an independent copy of the whole repository at the
 * start state, brought to the end state, is what `git diff` of it lists for that directory.
 */
test("ignore rules (wildcards, nested, negated, inherited from the repository above) as git applies them", async () => {
  const scratch = mkdtempSync(join(tmpdir(), "pi-kit-ignore-rules-"));
  const write = (root: string, path: string, text: string) => {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  try {
    const repo = join(scratch, "repo");
    const workspace = join(repo, "packages", "app");
    const start: Record<string, string> = {
      ".gitignore": [
        "*.log",
        "!keep.log",
        "build/",
        "/packages/app/dist/",
        "!/packages/app/dist/",
        "/packages/app/dist/*",
        "!/packages/app/dist/keep.txt",
        "packages/*/tmp/",
        "**/app/gen",
        "packages/**/cache-*",
        "/top-only",
        "[Tt]emp?.txt",
        "",
      ].join("\n"),
      "packages/.gitignore": "*.tmp\n!important.tmp\n",
      "packages/app/.gitignore": "/local-only\n*.bak\n!keep.bak\n",
      "packages/app/src/.gitignore": "*.generated.ts\n!keep.generated.ts\nlib/*.js\n",
      "packages/app/src/a.ts": "a\n",
      "packages/app/src/gone.ts": "gone\n",
      "packages/app/old.log": "old\n",
      "packages/app/keep.log": "kept\n",
      "packages/app/src/lib/b.ts": "b\n",
      "packages/other/c.ts": "c\n",
    };
    for (const [path, text] of Object.entries(start)) write(repo, path, text);
    git(repo, "init", "-q");
    const independent = join(scratch, "independent");
    mkdirSync(independent);
    git(independent, "init", "-q");
    mirrorInto(independent, repo, join(scratch, "start.tar"));
    git(independent, "-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qm", "start");

    const checkpoints = await Checkpoints.open({ workspace, dir: join(scratch, "shadow") });
    const first = await checkpoints.checkpoint("session start");
    const end: Record<string, string> = {
      "src/a.ts": "a2\n",
      "keep.log": "kept, changed\n",
      "new.log": "ignored\n",
      "deep/er/x.log": "ignored\n",
      "deep/er/keep.log": "not ignored\n",
      "build/out.js": "ignored\n",
      "src/build/out.js": "ignored\n",
      "dist/bundle.js": "ignored\n",
      "dist/keep.txt": "re-included\n",
      "tmp/t.txt": "ignored\n",
      "gen/g.ts": "ignored\n",
      "src/cache-1/c": "ignored\n",
      "top-only": "not ignored here\n",
      "Temp1.txt": "ignored\n",
      "temp12.txt": "not ignored\n",
      "x.tmp": "ignored\n",
      "important.tmp": "re-included\n",
      "local-only": "ignored\n",
      "src/local-only": "not ignored\n",
      "a.bak": "ignored\n",
      "keep.bak": "re-included\n",
      "src/x.generated.ts": "ignored\n",
      "src/keep.generated.ts": "re-included\n",
      "src/lib/y.js": "ignored\n",
      "src/lib/deeper/z.js": "not ignored\n",
      "src/lib/b.ts": "b2\n",
    };
    for (const [path, text] of Object.entries(end)) write(workspace, path, text);
    rmSync(join(workspace, "src/gone.ts"));
    rmSync(join(workspace, "old.log"));

    const listed = await checkpoints.changes(first.id);
    mirrorInto(independent, repo, join(scratch, "end.tar"));
    const appDir = join(independent, "packages", "app");
    assert.deepEqual(listed, gitChanges(appDir, ["--relative"]));
    assert.deepEqual(
      listed.map((c) => `${c.status} ${c.path}`),
      [
        "added deep/er/keep.log",
        "added dist/keep.txt",
        "added important.tmp",
        "added keep.bak",
        "modified keep.log",
        "modified src/a.ts",
        "deleted src/gone.ts",
        "added src/keep.generated.ts",
        "modified src/lib/b.ts",
        "added src/lib/deeper/z.js",
        "added src/local-only",
        "added temp12.txt",
        "added top-only",
      ],
    );
    const stat = git(appDir, "diff", "--cached", "-M", "--relative", "--stat", "HEAD");
    assert.match(stat, new RegExp(`${listed.length} files changed`));
    for (const change of listed)
      assert.equal(
        await checkpoints.diff(first.id, change.path),
        git(appDir, "diff", "--cached", "-M", "--relative", "HEAD", "--", change.path),
        `the diff of ${change.path}`,
      );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
