/**
 * Live, real pi 1.x (scripted model): the changes API of issue 26 through the bridge's HTTP API
 * and `BridgeWorkspaceChanges`. A checkpoint at session start and one per run, taken before pi
 * has the prompt; a scripted suite (write, edit, shell-created, shell-deleted, rename, binary,
 * nested dirs, a gitignored file) listed exactly as `git diff` of an independent copy of the start
 * state sees it, diff for diff; a watcher cannot revert or restore, the controller can, and
 * reverting and restoring give byte-identical files and trees; nothing is undone during a run;
 * deleting the session deletes its checkpoints.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
  BridgeSessionHistory,
  BridgeWorkspaceChanges,
  type SessionHistoryError,
} from "@pi-kit/client";
import { git, gitChanges, mirrorInto, tree } from "../../../../test-support/git-tree.ts";
import { connect, idOf, type Rec, run, startBridge } from "../helpers.ts";

/** The socket's own id, from the `bridge_control` record it got as it attached. */
async function refusal(promise: Promise<unknown>): Promise<SessionHistoryError> {
  try {
    await promise;
  } catch (error) {
    return error as SessionHistoryError;
  }
  assert.fail("expected a refusal");
}

test("changes API: checkpoints before each run, the suite as git sees it, undo by the controller only", {
  timeout: 180_000,
}, async () => {
  const bridge = await startBridge();
  const ws = bridge.pi.workspace;
  const independent = join(bridge.pi.tempRoot, "independent");
  const tarball = join(bridge.pi.tempRoot, "state.tar");
  try {
    // The start state, with the user's own repository in it.
    mkdirSync(join(ws, "src"));
    mkdirSync(join(ws, "build"));
    writeFileSync(join(ws, "src/app.ts"), "const a = 1;\nexport { a };\n");
    writeFileSync(join(ws, "doomed.txt"), "to be deleted\n");
    writeFileSync(join(ws, "old-name.txt"), "a file that a shell command renames\nline two\n");
    writeFileSync(join(ws, ".gitignore"), "build/\n");
    writeFileSync(join(ws, "build/out.js"), "old build\n");
    writeFileSync(join(ws, "logo.bin"), Buffer.from([0, 1, 2, 3, 255, 254]));
    git(ws, "init", "-q");
    git(ws, "add", "-A");
    git(ws, "-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qm", "user's own");
    const userGit = tree(join(ws, ".git"));
    const start = tree(ws, (p) => p === ".git" || p.startsWith("build"));
    // The independent copy of the start state: a plain repository of its own.
    mkdirSync(independent);
    git(independent, "init", "-q");
    mirrorInto(independent, ws, tarball);
    git(independent, "-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qm", "start");

    const controller = await connect(bridge, "work");
    const controllerId = await idOf(controller);
    const watcher = await connect(bridge, "work");
    const watcherId = await idOf(watcher);
    const as = (id: number | undefined) =>
      new BridgeWorkspaceChanges({
        baseUrl: bridge.url,
        session: "work",
        token: bridge.token,
        connectionId: () => id,
      });
    const changes = as(controllerId);

    // The session-start checkpoint, then one per run, taken before pi had the prompt: what the
    // run wrote shows as changed since the run's own checkpoint.
    const prompt = `Write and edit [[write nested/deep/new.txt hello\\nworld\\n]] [[edit src/app.ts const a = 1; => const a = 2;]]\nsecond line`;
    await run(controller, prompt);
    const afterFirst = await changes.checkpoints();
    assert.deepEqual(
      afterFirst.map((c) => c.label),
      ["session start", `${prompt.split("\n")[0]?.slice(0, 79)}…`],
      "labelled with the prompt's first line, trimmed to 80",
    );
    const firstRun = afterFirst[1]?.id as string;
    assert.deepEqual(
      (await changes.changes(firstRun)).changes.map((c) => `${c.status} ${c.path}`),
      ["added nested/deep/new.txt", "modified src/app.ts"],
      "the run's checkpoint came before its writes",
    );
    // An extension command starts no run: it gets no checkpoint.
    const command = await controller.request({ type: "prompt", message: "/permissions full" });
    assert.equal(command.success, true);
    assert.equal((await changes.checkpoints()).length, 2);
    await run(
      controller,
      "[[bash echo shell > made-by-shell.txt && rm doomed.txt && mv old-name.txt renamed.txt && printf '\\001\\002' >> logo.bin && echo rebuilt > build/out.js]]",
    );
    const [sessionStart, , secondRun, more] = await changes.checkpoints();
    assert.ok(sessionStart && secondRun && more === undefined);

    // Since the session start (the default): exactly what git sees in the independent copy.
    const listed = await changes.changes();
    mirrorInto(independent, ws, tarball);
    assert.equal(listed.since, sessionStart.id);
    assert.deepEqual(listed.changes, gitChanges(independent));
    assert.deepEqual(
      listed.changes.map((c) => `${c.status} ${c.path}`),
      [
        "deleted doomed.txt",
        "modified logo.bin",
        "added made-by-shell.txt",
        "added nested/deep/new.txt",
        "renamed renamed.txt",
        "modified src/app.ts",
      ],
      "every kind of change, but the gitignored build/",
    );
    const stat = git(independent, "diff", "--cached", "-M", "--stat", "HEAD").trim().split("\n");
    const added = listed.changes.reduce((n, c) => n + c.additions, 0);
    const removed = listed.changes.reduce((n, c) => n + c.deletions, 0);
    assert.equal(
      stat.at(-1)?.trim(),
      `${listed.changes.length} files changed, ${added} insertions(+), ${removed} deletions(-)`,
    );
    for (const change of listed.changes) {
      const paths = change.oldPath === undefined ? [change.path] : [change.oldPath, change.path];
      assert.equal(
        (await changes.diff(change.path)).diff,
        git(independent, "diff", "--cached", "-M", "HEAD", "--", ...paths),
        `the diff of ${change.path}`,
      );
    }

    // Bad requests are typed; nothing changes on disk.
    const bad = await refusal(changes.diff("../outside.txt"));
    assert.deepEqual([bad.status, bad.hostCode], [400, "invalid_path"]);
    const absolute = await refusal(changes.revertFile("/etc/passwd"));
    assert.deepEqual([absolute.status, absolute.hostCode], [400, "invalid_path"]);
    const unknown = await refusal(changes.changes("f".repeat(40)));
    assert.deepEqual([unknown.status, unknown.hostCode], [404, "unknown_checkpoint"]);
    const malformed = await refusal(changes.restore("HEAD~1"));
    assert.deepEqual([malformed.status, malformed.hostCode], [400, "invalid_request"]);

    // A watcher, or a caller naming no socket, cannot undo; the controller can.
    for (const who of [as(watcherId), as(undefined)]) {
      const refused = await refusal(who.revertFile("src/app.ts"));
      assert.deepEqual([refused.status, refused.hostCode], [403, "not_controller"]);
      const restore = await refusal(who.restore(sessionStart.id));
      assert.deepEqual([restore.status, restore.hostCode], [403, "not_controller"]);
    }
    assert.equal(readFileSync(join(ws, "src/app.ts"), "utf8"), "const a = 2;\nexport { a };\n");
    const reverted = await changes.revertFile("src/app.ts");
    assert.equal(readFileSync(join(ws, "src/app.ts"), "utf8"), "const a = 1;\nexport { a };\n");
    assert.ok(!reverted.changes.some((c) => c.path === "src/app.ts"));
    await changes.revertFile("renamed.txt");
    assert.equal(
      readFileSync(join(ws, "old-name.txt"), "utf8"),
      "a file that a shell command renames\nline two\n",
    );
    assert.ok(!existsSync(join(ws, "renamed.txt")));

    // Nothing is undone while pi is in a run.
    const from = controller.records.length;
    controller.send({ type: "prompt", message: "Slowly [[slow 100ms x 600]]" });
    await controller.waitFor((r: Rec) => r.type === "message_update", 60_000, from);
    const busy = await refusal(changes.restore(sessionStart.id));
    assert.deepEqual([busy.status, busy.hostCode], [409, "run_in_progress"]);
    await controller.request({ type: "abort" }, 30_000);
    await controller.waitFor((r: Rec) => r.type === "agent_settled", 60_000, from);

    // Restoring the session start: the tree as it was, byte for byte (the ignored build/ stays).
    const restored = await changes.restore(sessionStart.id);
    assert.deepEqual(restored.changes, []);
    assert.deepEqual(
      tree(ws, (p) => p === ".git" || p.startsWith("build")),
      start,
    );
    assert.equal(readFileSync(join(ws, "build/out.js"), "utf8"), "rebuilt\n");
    assert.deepEqual(tree(join(ws, ".git")), userGit, "the user's .git is untouched");
    await watcher.close();
    await controller.close();

    // A deleted session's checkpoints go with it.
    const shadow = join(bridge.sessionsDir, ".checkpoints", "work");
    assert.ok(existsSync(shadow));
    await new BridgeSessionHistory({ baseUrl: bridge.url, token: bridge.token }).delete("work");
    assert.ok(!existsSync(shadow));
  } finally {
    await bridge.dispose();
  }
});
