/**
 * Live, issue 26 (real pi 1.x, scripted model): checkpoints of the workspace in a shadow git
 * repository, through the Node API a host that spawns pi itself uses. A scripted suite (write,
 * edit, shell-created, shell-deleted, rename, binary, nested dirs, files left out by wildcard,
 * nested and negated `.gitignore` rules) is listed exactly as `git diff` of an independent copy of
 * the start state sees it, diff for diff; a file over the size cap is listed apart, `tooLarge`; reverting a file and restoring the checkpoint give byte-identical files and
 * trees; the user's own `.git` is untouched.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { type ModelServer, piCommand, startModelServer } from "@pi-kit/testing";
import { git, gitChanges, tree } from "../../../../test-support/git-tree.ts";
import { PiClient } from "../../src/index.ts";
import { CheckpointError, Checkpoints } from "../../src/node.ts";
import { spawnPi } from "../../src/process.ts";

let server: ModelServer;
before(async () => {
  server = await startModelServer();
});
after(async () => {
  await server.close();
});

test("checkpoints list, diff, revert and restore a scripted suite exactly as git sees it", {
  timeout: 120_000,
}, async () => {
  const pi = piCommand({ version: "1", baseUrl: server.baseUrl });
  const ws = pi.workspace;
  const independent = join(pi.tempRoot, "independent");
  try {
    // The start state, and the user's own repository in it.
    mkdirSync(join(ws, "src"));
    mkdirSync(join(ws, "build"));
    writeFileSync(join(ws, "src/app.ts"), "const a = 1;\nexport { a };\n");
    writeFileSync(join(ws, "doomed.txt"), "to be deleted\n");
    writeFileSync(join(ws, "old-name.txt"), "a file that a shell command renames\nline two\n");
    writeFileSync(join(ws, ".gitignore"), "build/\n*.log\n!keep.log\n");
    writeFileSync(join(ws, "src/.gitignore"), "*.gen.ts\n!/keep.gen.ts\n");
    writeFileSync(join(ws, "build/out.js"), "old build\n");
    writeFileSync(join(ws, "logo.bin"), Buffer.from([0, 1, 2, 3, 255, 254]));
    writeFileSync(join(ws, "huge.dat"), "x".repeat(4096));
    git(ws, "init", "-q");
    git(ws, "add", "-A");
    git(ws, "-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qm", "user's own");
    const userGit = tree(join(ws, ".git"));
    const start = tree(ws, (p) => p === ".git");

    const checkpoints = await Checkpoints.open({
      workspace: ws,
      dir: join(pi.tempRoot, "checkpoints"),
      maxFileBytes: 1024,
    });
    const first = await checkpoints.checkpoint("session start");
    assert.deepEqual(await checkpoints.skipped(), ["huge.dat"], "over the cap: left out");
    // The independent copy of the start state: a plain repository of its own.
    mkdirSync(independent);
    execFileSync("tar", ["-C", ws, "--exclude=./.git", "-cf", join(pi.tempRoot, "start.tar"), "."]);
    execFileSync("tar", ["-C", independent, "-xf", join(pi.tempRoot, "start.tar")]);
    git(independent, "init", "-q");
    git(independent, "add", "-A");
    git(independent, "-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qm", "start");

    const client = await PiClient.connect(
      await spawnPi({ command: pi.command, args: [...pi.args], cwd: pi.cwd, env: pi.env }),
    );
    try {
      await client.promptAndWait(
        "[[write nested/deep/new.txt hello\\nworld\\n]] [[edit src/app.ts const a = 1; => const a = 2;]]",
      );
      await client.promptAndWait(
        "[[bash echo shell > made-by-shell.txt && rm doomed.txt && mv old-name.txt renamed.txt && printf '\\001\\002' >> logo.bin && echo rebuilt > build/out.js && echo l > nested/x.log && echo k > nested/keep.log && echo g > src/a.gen.ts && echo k > src/keep.gen.ts && mkdir -p src/sub && echo k > src/sub/keep.gen.ts]]",
      );
    } finally {
      await client.close();
    }

    const listed = await checkpoints.changes(first.id);
    // The independent copy, brought to the workspace's state: git's own view of the changes.
    execFileSync("tar", ["-C", ws, "--exclude=./.git", "-cf", join(pi.tempRoot, "end.tar"), "."]);
    for (const name of readdirSync(independent))
      if (name !== ".git") execFileSync("rm", ["-rf", join(independent, name)]);
    execFileSync("tar", ["-C", independent, "-xf", join(pi.tempRoot, "end.tar")]);
    git(independent, "add", "-A");
    assert.deepEqual(listed, gitChanges(independent));
    assert.deepEqual(
      listed.map((c) => `${c.status} ${c.path}`),
      [
        "deleted doomed.txt",
        "modified logo.bin",
        "added made-by-shell.txt",
        "added nested/deep/new.txt",
        "added nested/keep.log",
        "renamed renamed.txt",
        "modified src/app.ts",
        "added src/keep.gen.ts",
      ],
      "every kind of change; not what .gitignore rules leave out, nor the unchanged huge.dat",
    );
    const stat = git(independent, "diff", "--cached", "-M", "--stat", "HEAD")
      .trim()
      .split("\n")
      .at(-1);
    const added = listed.reduce((n, c) => n + c.additions, 0);
    const removed = listed.reduce((n, c) => n + c.deletions, 0);
    assert.equal(
      stat?.trim(),
      `${listed.length} files changed, ${added} insertions(+), ${removed} deletions(-)`,
    );
    for (const change of listed) {
      const paths = change.oldPath === undefined ? [change.path] : [change.oldPath, change.path];
      assert.equal(
        await checkpoints.diff(first.id, change.path),
        git(independent, "diff", "--cached", "-M", "HEAD", "--", ...paths),
        `the diff of ${change.path}`,
      );
    }

    // A file over the cap that appears later is listed, too large to diff or restore.
    writeFileSync(join(ws, "dump.bin"), Buffer.alloc(2048, 7));
    assert.deepEqual(
      (await checkpoints.changes(first.id)).filter((c) => c.path === "dump.bin"),
      [
        {
          path: "dump.bin",
          status: "added",
          additions: 0,
          deletions: 0,
          binary: false,
          tooLarge: true,
          size: 2048,
        },
      ],
    );
    rmSync(join(ws, "dump.bin"));

    // A checkpoint at the start of the next run; reverting one file goes back to the first.
    const second = await checkpoints.checkpoint("run 2");
    assert.deepEqual(
      (await checkpoints.list()).map((c) => c.label),
      ["session start", "run 2"],
    );
    assert.deepEqual(await checkpoints.changes(second.id), []);
    await checkpoints.revertFile(first.id, "src/app.ts");
    assert.equal(readFileSync(join(ws, "src/app.ts"), "utf8"), "const a = 1;\nexport { a };\n");
    await checkpoints.revertFile(first.id, "renamed.txt");
    assert.equal(
      readFileSync(join(ws, "old-name.txt"), "utf8"),
      "a file that a shell command renames\nline two\n",
    );
    assert.deepEqual(
      (await checkpoints.changes(first.id)).map((c) => c.path),
      [
        "doomed.txt",
        "logo.bin",
        "made-by-shell.txt",
        "nested/deep/new.txt",
        "nested/keep.log",
        "src/keep.gen.ts",
      ],
    );

    // A file over the cap changed since: restoring cannot put it back, so it changes nothing.
    const hugeAtStart = statSync(join(ws, "huge.dat"));
    writeFileSync(join(ws, "huge.dat"), "y".repeat(4096));
    const beforeRefusal = tree(ws, (p) => p === ".git");
    await assert.rejects(
      checkpoints.restore(first.id),
      (error: unknown) =>
        error instanceof CheckpointError &&
        error.code === "too_large_to_restore" &&
        error.paths.join() === "huge.dat",
    );
    assert.deepEqual(
      tree(ws, (p) => p === ".git"),
      beforeRefusal,
      "nothing changed",
    );
    writeFileSync(join(ws, "huge.dat"), "x".repeat(4096));
    utimesSync(join(ws, "huge.dat"), hugeAtStart.atimeMs / 1000, hugeAtStart.mtimeMs / 1000);

    // Restoring the first checkpoint: the tree as it was, but the ignored build output.
    await checkpoints.restore(first.id);
    // What .gitignore rules leave out (and the directories only they hold) is left alone.
    const ignored = ["build", "nested", "src/a.gen.ts", "src/sub"];
    const skipBuild = (p: string) => p === ".git" || ignored.some((i) => p.startsWith(i));
    assert.deepEqual(
      tree(ws, skipBuild),
      new Map([...start].filter(([p]) => !ignored.some((i) => p.startsWith(i)))),
    );
    assert.equal(
      readFileSync(join(ws, "build/out.js"), "utf8"),
      "rebuilt\n",
      "ignored: left alone",
    );
    assert.deepEqual(await checkpoints.changes(first.id), []);
    assert.deepEqual(tree(join(ws, ".git")), userGit, "the user's .git is untouched");
  } finally {
    pi.dispose();
  }
});
