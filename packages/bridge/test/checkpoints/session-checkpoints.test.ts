/**
 * The bridge's side of checkpoints without pi: labels, the paths the changes API accepts, a
 * resumed session keeping its first checkpoint, a fenced owner writing nothing, a session that
 * holds a prompt until its run's checkpoint is taken (on a scripted pi), and a bridge with
 * checkpoints off answering `checkpoints_off`.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { Checkpoints } from "@pi-kit/client/node";
import { CheckpointStore } from "../../src/checkpoints/checkpoint-store.ts";
import {
  confinedPath,
  runLabel,
  SessionCheckpoints,
} from "../../src/checkpoints/session-checkpoints.ts";
import { BridgeError } from "../../src/errors/bridge-error.ts";
import { createBridge, generateToken } from "../../src/index.ts";
import { BRIDGE_OWNER, sessionKey } from "../../src/principals/owner.ts";
import { Session } from "../../src/sessions/session.ts";
import { scriptedPi } from "../scripted-session.ts";

test("a run's label is its prompt's first non-empty line, trimmed to 80 characters", () => {
  assert.equal(runLabel("\n  Fix   the parser \nand more"), "Fix the parser");
  assert.equal(runLabel("x".repeat(200)), `${"x".repeat(79)}…`);
  assert.equal(runLabel("   \n"), "(empty prompt)");
});

test("paths stay inside the workspace: relative, no `..`, `.`, empty segment, backslash or NUL", () => {
  for (const good of ["a.txt", "src/deep/b.ts", ".gitignore", "dir/.hidden", "with space.md"])
    assert.equal(confinedPath(good), good);
  for (const bad of [
    "",
    "/etc/passwd",
    "../x",
    "a/../../x",
    "a/./b",
    "a//b",
    "a/",
    "C:/x",
    "a\\b",
    "a\0b",
  ]) {
    assert.throws(
      () => confinedPath(bad),
      (error: unknown) => error instanceof BridgeError && error.code === "invalid_path",
      JSON.stringify(bad),
    );
  }
});

test("a resumed session keeps its session start; a fenced owner writes no checkpoint and undoes nothing", async () => {
  const scratch = mkdtempSync(join(tmpdir(), "pi-kit-session-checkpoints-"));
  try {
    const workspace = join(scratch, "workspace");
    const dir = join(scratch, "checkpoints");
    mkdirSync(workspace);
    writeFileSync(join(workspace, "a.txt"), "one\n");
    const first = new SessionCheckpoints(Checkpoints.open({ workspace, dir }));
    const starting = first.sessionStart();
    // Asked while the session start is being taken: the answer waits for it.
    assert.deepEqual((await first.changes()).changes, []);
    await starting;
    writeFileSync(join(workspace, "a.txt"), "two\n");
    await first.beforeRun("Change a");

    // The bridge restarts: the session's checkpoints are read back, the first stays first.
    const resumed = new SessionCheckpoints(Checkpoints.open({ workspace, dir }));
    await resumed.sessionStart();
    assert.deepEqual(
      (await resumed.list()).map((c) => c.label),
      ["session start", "Change a"],
    );

    resumed.fence();
    const refused = (error: unknown) => error instanceof BridgeError;
    await assert.rejects(resumed.beforeRun("Another run"), refused);
    await assert.rejects(resumed.revertFile("a.txt"), refused);
    const [start] = await resumed.list();
    await assert.rejects(resumed.restore(start?.id as string), refused);
    assert.equal(readFileSync(join(workspace, "a.txt"), "utf8"), "two\n", "nothing undone");
    assert.equal((await resumed.list()).length, 2, "no checkpoint written");
    // Reading goes on: what changed is still there to see.
    assert.deepEqual(
      (await resumed.changes()).changes.map((c) => `${c.status} ${c.path}`),
      ["modified a.txt"],
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

test("a file over the size cap: listed tooLarge; undoing what was never kept is 409 too_large_to_restore, nothing changed", async () => {
  const scratch = mkdtempSync(join(tmpdir(), "pi-kit-checkpoints-cap-"));
  try {
    const workspace = join(scratch, "workspace");
    mkdirSync(workspace);
    writeFileSync(join(workspace, "dump.bin"), Buffer.alloc(2048, 1));
    const checkpoints = new SessionCheckpoints(
      Checkpoints.open({ workspace, dir: join(scratch, "checkpoints"), maxFileBytes: 1024 }),
    );
    await checkpoints.sessionStart();
    writeFileSync(join(workspace, "dump.bin"), Buffer.alloc(3000, 2));
    const set = await checkpoints.changes();
    assert.deepEqual(set.changes, [
      {
        path: "dump.bin",
        status: "modified",
        additions: 0,
        deletions: 0,
        binary: false,
        tooLarge: true,
        size: 3000,
      },
    ]);
    assert.deepEqual(set.skipped, ["dump.bin"]);
    const tooLarge = (error: unknown) =>
      error instanceof BridgeError &&
      error.code === "too_large_to_restore" &&
      error.status === 409 &&
      /dump\.bin/.test(error.message);
    await assert.rejects(checkpoints.revertFile("dump.bin"), tooLarge);
    await assert.rejects(checkpoints.restore(set.since), tooLarge);
    assert.equal(readFileSync(join(workspace, "dump.bin")).length, 3000, "nothing changed");
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

test("a node that may no longer write the session's storage (its lease ran out) takes no checkpoint and undoes nothing", async () => {
  const scratch = mkdtempSync(join(tmpdir(), "pi-kit-checkpoints-lease-"));
  try {
    const workspace = join(scratch, "workspace");
    mkdirSync(workspace);
    writeFileSync(join(workspace, "a.txt"), "one\n");
    let held = true;
    const checkpoints = new SessionCheckpoints(
      Checkpoints.open({ workspace, dir: join(scratch, "checkpoints") }),
      () => held,
    );
    await checkpoints.sessionStart();
    writeFileSync(join(workspace, "a.txt"), "two\n");
    held = false;
    const refused = (error: unknown) =>
      error instanceof BridgeError && error.code === "session_stopped";
    await assert.rejects(checkpoints.beforeRun("a run"), refused);
    await assert.rejects(checkpoints.revertFile("a.txt"), refused);
    assert.equal(readFileSync(join(workspace, "a.txt"), "utf8"), "two\n", "nothing undone");
    assert.equal((await checkpoints.list()).length, 1, "no checkpoint written");
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

test("a closing bridge waits for the checkpoints' git work: settled() resolves only once a checkpoint in progress is written", async () => {
  const scratch = mkdtempSync(join(tmpdir(), "pi-kit-checkpoints-settled-"));
  try {
    const workspace = join(scratch, "workspace");
    mkdirSync(workspace);
    for (let i = 0; i < 200; i++) writeFileSync(join(workspace, `f${i}.txt`), `${i}\n`);
    const store = new CheckpointStore({
      sessionsDir: join(scratch, "sessions"),
      workspaceOf: async () => workspace,
    });
    const key = sessionKey(BRIDGE_OWNER, "work");
    let written = false;
    void store
      .started(key)
      .sessionStart()
      .then(() => {
        written = true;
      });
    await store.settled();
    assert.equal(written, true, "settled before the session-start checkpoint was written");
    assert.equal((await (await store.of(key))?.list())?.length, 1);
    await store.settled();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

test("a bridge with checkpoints off answers the changes API with 404 checkpoints_off; CORS lets a page name its socket", async () => {
  const scratch = mkdtempSync(join(tmpdir(), "pi-kit-no-checkpoints-"));
  try {
    const token = generateToken();
    const bridge = createBridge(
      {
        pi: { command: "pi" },
        token,
        sessionsDir: join(scratch, "sessions"),
        checkpoints: false,
        origins: ["http://app.test"],
        logger: () => {},
      },
      {} as Parameters<typeof createBridge>[1],
    );
    try {
      const response = await bridge.app.fetch(
        new Request("http://bridge.test/api/sessions/alpha/changes", {
          headers: { authorization: `Bearer ${token}` },
        }),
      );
      assert.equal(response.status, 404);
      assert.equal(((await response.json()) as { code: string }).code, "checkpoints_off");
      // A page of another origin may name its socket: the preflight allows the header.
      const preflight = await bridge.app.fetch(
        new Request("http://bridge.test/api/sessions/alpha/changes/revert", {
          method: "OPTIONS",
          headers: {
            origin: "http://app.test",
            "access-control-request-method": "POST",
            "access-control-request-headers": "authorization, content-type, x-pi-kit-connection",
          },
        }),
      );
      assert.match(
        preflight.headers.get("access-control-allow-headers") ?? "",
        /X-Pi-Kit-Connection/i,
      );
    } finally {
      await bridge.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

test("a session holds a prompt until its run's checkpoint is taken; once fenced, it writes none", async () => {
  const scratch = mkdtempSync(join(tmpdir(), "pi-kit-session-hold-"));
  try {
    const workspace = join(scratch, "workspace");
    mkdirSync(workspace);
    writeFileSync(join(workspace, "a.txt"), "one\n");
    const store = new CheckpointStore({
      sessionsDir: join(scratch, "sessions"),
      workspaceOf: async () => workspace,
    });
    const refs = join(
      scratch,
      "sessions",
      ".checkpoints",
      "s",
      "git",
      "refs",
      "pi-kit",
      "checkpoints",
    );
    const pi = scriptedPi();
    // What pi has read, and how many checkpoints there were as it read each record.
    const seen: string[] = [];
    let wake = () => {};
    const reading = (count: number) =>
      new Promise<void>((resolve) => {
        wake = () => seen.length >= count && resolve();
        wake();
      });
    pi.answerWith((record) => {
      seen.push(`${String(record.type)} after ${readdirSync(refs).length} checkpoints`);
      wake();
      if (record.type === "get_commands")
        return JSON.stringify({
          type: "response",
          id: record.id,
          command: "get_commands",
          success: true,
          data: { commands: [{ name: "permissions", source: "extension" }] },
        });
      return undefined;
    });
    const session = await Session.start("s", join(scratch, "sessions", "s"), {
      pi: { command: "pi" },
      sessionArgs: () => [],
      spawn: async () => pi.transport,
      highWaterMark: 1 << 20,
      maxPendingDialogs: 8,
      maxStdinBytes: 1 << 20,
      stopTimeouts: undefined,
      logger: () => {},
      checkpoints: store,
    });
    try {
      const controller = {
        id: 1,
        label: "desk",
        readOnly: false,
        send: () => {},
        bufferedAmount: () => 0,
        drained: async () => {},
        close: () => {},
      };
      session.attach(controller);
      assert.equal(session.controllerId, 1);
      const send = (record: Record<string, unknown>) =>
        assert.equal(
          session.write(JSON.stringify(record), undefined, controller, record.id as number),
          true,
        );
      send({ type: "get_state", id: 1 });
      send({ type: "prompt", id: 2, message: "Change a\nplease" });
      assert.equal(session.inRun, true, "a prompt waiting for its checkpoint counts as a run");
      send({ type: "get_state", id: 3 });
      await reading(3);
      assert.equal(session.inRun, false);
      send({ type: "prompt", id: 4, message: "/permissions ask" });
      await reading(5);
      const live = await store.of(sessionKey("", "s"));
      assert.ok(live);
      assert.deepEqual(
        seen,
        [
          "get_state after 1 checkpoints",
          "prompt after 2 checkpoints",
          "get_state after 2 checkpoints",
          "get_commands after 2 checkpoints",
          "prompt after 2 checkpoints",
        ],
        "in order; each run's checkpoint before pi had its prompt; none for an extension command",
      );
      assert.deepEqual(
        (await live.list()).map((c) => c.label),
        ["session start", "Change a"],
      );

      session.fence();
      await assert.rejects(live.beforeRun("too late"), BridgeError);
      assert.equal(readdirSync(refs).length, 2, "a fenced owner writes no checkpoint");
    } finally {
      // A fenced session waits for its killed pi: the scripted one ends when told.
      await pi.transport.close();
      await session.exited;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

test("without a working git, pi goes on without checkpoints and the API says checkpoints_off", async () => {
  const scratch = mkdtempSync(join(tmpdir(), "pi-kit-no-git-"));
  try {
    const workspace = join(scratch, "workspace");
    mkdirSync(workspace);
    const store = new CheckpointStore({
      sessionsDir: join(scratch, "sessions"),
      workspaceOf: async () => workspace,
      git: join(scratch, "no-such-git"),
    });
    const key = sessionKey("", "s");
    await assert.rejects(store.started(key).sessionStart());
    await assert.rejects(
      store.of(key),
      (error: unknown) => error instanceof BridgeError && error.code === "checkpoints_off",
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
