/**
 * The bridge's side of checkpoints without pi: labels, the paths the changes API accepts, a
 * resumed session keeping its first checkpoint, a fenced owner writing nothing, and a bridge
 * with checkpoints off answering `checkpoints_off`.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { Checkpoints } from "@pi-kit/client/node";
import {
  confinedPath,
  runLabel,
  SessionCheckpoints,
} from "../src/checkpoints/session-checkpoints.ts";
import { BridgeError } from "../src/errors.ts";
import { createBridge, generateToken } from "../src/index.ts";

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
    const first = new SessionCheckpoints(await Checkpoints.open({ workspace, dir }));
    await first.sessionStart();
    writeFileSync(join(workspace, "a.txt"), "two\n");
    await first.beforeRun("Change a");

    // The bridge restarts: the session's checkpoints are read back, the first stays first.
    const resumed = new SessionCheckpoints(await Checkpoints.open({ workspace, dir }));
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
