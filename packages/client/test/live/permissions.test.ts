/**
 * Live, issue 26: pi-kit's permission extension inside real pi 1.x and 0.73.1 (loaded the way a
 * host that spawns pi itself loads it: `permissionModes()`). In `ask` every edit, write and bash
 * call opens a question before anything touches the disk, and none ran after a deny; in
 * `auto-edits` only bash asks; "Allow for this session" stops asking for that command; a question
 * that times out denies; switching to `full` mid-run lets the next call through unasked.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { DialogRequest } from "@pi-kit/protocol";
import { type ModelServer, type PiVersion, piCommand, startModelServer } from "@pi-kit/testing";
import {
  type DialogHandler,
  PERMISSION_STATUS_KEY,
  type PermissionMode,
  PiClient,
  permissionModeCommand,
} from "../../src/index.ts";
import { Checkpoints } from "../../src/node.ts";
import { permissionModes, spawnPi } from "../../src/process.ts";
import { whenSession } from "./live-pi.ts";

let server: ModelServer;
before(async () => {
  server = await startModelServer();
});
after(async () => {
  await server.close();
});

interface Gated {
  readonly client: PiClient;
  readonly workspace: string;
  stop(): Promise<void>;
}

/** pi with the permission extension in `mode`, its questions answered by `answer`. */
async function startGated(
  version: PiVersion,
  mode: PermissionMode,
  answer: DialogHandler,
  timeoutMs?: number,
): Promise<Gated> {
  const permissions = permissionModes({ mode, ...(timeoutMs ? { timeoutMs } : {}) });
  const cmd = piCommand({
    version,
    baseUrl: server.baseUrl,
    args: permissions.args,
    env: permissions.env,
  });
  const transport = await spawnPi({
    command: cmd.command,
    args: cmd.args,
    cwd: cmd.cwd,
    env: cmd.env,
  });
  const client = await PiClient.connect(transport, { dialogHandler: answer });
  return {
    client,
    workspace: cmd.workspace,
    stop: async () => {
      await client.close();
      cmd.dispose();
    },
  };
}

/** The text of the tool results of the session so far. */
function toolResults(client: PiClient): string[] {
  return client.session
    .getSnapshot()
    .messages.flatMap((m) =>
      m.role === "toolResult"
        ? [m.content.map((c) => (c.type === "text" ? c.text : "")).join("")]
        : [],
    );
}

/** One write, one edit and one shell command that each change the workspace. */
const SUITE =
  "[[write made.txt hello]] [[edit kept.txt one => two]] [[bash echo shell > shell.txt]]";

for (const version of ["1", "0.73"] as const) {
  describe(`live pi ${version}: permission modes`, { timeout: 120_000 }, () => {
    test("ask: every edit, write and bash asks before touching the disk; none runs after a deny", async () => {
      let workspace = "";
      const asked: Array<{ title: string; disk: string[] }> = [];
      const gated = await startGated(version, "ask", (request: DialogRequest) => {
        const disk = ["made.txt", "shell.txt"].filter((f) => existsSync(join(workspace, f)));
        disk.push(readFileSync(join(workspace, "kept.txt"), "utf8"));
        asked.push({ title: request.title, disk });
        assert.equal(request.method, "select");
        return "Deny";
      });
      workspace = gated.workspace;
      writeFileSync(join(workspace, "kept.txt"), "one\n");
      try {
        await whenSession(
          gated.client,
          () => gated.client.session.getSnapshot().ui.statuses.get(PERMISSION_STATUS_KEY) === "ask",
        );
        const checkpoints = await Checkpoints.open({
          workspace,
          dir: join(workspace, "..", "checkpoints"),
        });
        const before = await checkpoints.checkpoint("before the suite");
        await gated.client.promptAndWait(SUITE);
        assert.deepEqual(await checkpoints.changes(before.id), [], "nothing changed on disk");
        assert.equal(asked.length, 3, "each of the three calls asked");
        assert.match(asked[0]?.title ?? "", /^Create made\.txt\? \(5 bytes\)\nhello/);
        assert.match(asked[1]?.title ?? "", /^Edit kept\.txt\?\n- one\n\+ two/);
        assert.match(asked[2]?.title ?? "", /^Run this command\?\necho shell > shell\.txt/);
        for (const { disk } of asked) assert.deepEqual(disk, ["one\n"], "nothing touched the disk");
        assert.equal(existsSync(join(workspace, "made.txt")), false);
        assert.equal(existsSync(join(workspace, "shell.txt")), false);
        assert.equal(readFileSync(join(workspace, "kept.txt"), "utf8"), "one\n");
        const results = toolResults(gated.client);
        assert.equal(results.length, 3);
        for (const result of results) assert.match(result, /The user denied this \w+ call/);
      } finally {
        await gated.stop();
      }
    });

    test("auto-edits: only bash asks; allowed for the session, the same command no longer asks", async () => {
      const asked: string[] = [];
      const gated = await startGated(version, "auto-edits", (request: DialogRequest) => {
        asked.push(request.title);
        return "Allow for this session";
      });
      writeFileSync(join(gated.workspace, "kept.txt"), "one\n");
      try {
        await gated.client.promptAndWait(SUITE);
        assert.deepEqual(asked, ["Run this command?\necho shell > shell.txt"]);
        assert.equal(readFileSync(join(gated.workspace, "made.txt"), "utf8"), "hello");
        assert.equal(readFileSync(join(gated.workspace, "kept.txt"), "utf8"), "two\n");
        assert.equal(readFileSync(join(gated.workspace, "shell.txt"), "utf8"), "shell\n");
        await gated.client.promptAndWait("[[bash echo shell > shell.txt]] [[bash echo other]]");
        assert.deepEqual(
          asked.slice(1),
          ["Run this command?\necho other"],
          "only the new command asked",
        );
      } finally {
        await gated.stop();
      }
    });

    test("a question that times out denies", async () => {
      const gated = await startGated(version, "ask", () => new Promise<undefined>(() => {}), 300);
      try {
        await gated.client.promptAndWait("[[bash echo late > late.txt]]");
        assert.equal(existsSync(join(gated.workspace, "late.txt")), false);
        assert.match(toolResults(gated.client)[0] ?? "", /No one approved/);
      } finally {
        await gated.stop();
      }
    });

    test("switching to full mid-run lets the next call through without a question", async () => {
      const asked: string[] = [];
      let client: PiClient | undefined;
      const gated = await startGated(version, "ask", async (request: DialogRequest) => {
        asked.push(request.title);
        // Mid-run, while pi waits on this question: an extension command runs at once.
        await client?.prompt(permissionModeCommand("full"));
        return "Allow once";
      });
      client = gated.client;
      try {
        await gated.client.promptAndWait("[[bash echo one > one.txt]] [[write two.txt two]]");
        assert.deepEqual(asked, ["Run this command?\necho one > one.txt"]);
        assert.equal(readFileSync(join(gated.workspace, "one.txt"), "utf8"), "one\n");
        assert.equal(readFileSync(join(gated.workspace, "two.txt"), "utf8"), "two");
        assert.equal(
          gated.client.session.getSnapshot().ui.statuses.get(PERMISSION_STATUS_KEY),
          "full",
        );
      } finally {
        await gated.stop();
      }
    });
  });
}
