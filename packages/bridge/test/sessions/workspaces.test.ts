import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { BridgeError, createBridge, generateToken } from "../../src/index.ts";
import { userOwner } from "../../src/principals/owner.ts";
import { bash, connect } from "../helpers.ts";
import { api, mint, startTicketBridge, ticketKeys, withTicket } from "../ticket-helpers.ts";

const mode = (path: string): number => statSync(path).mode & 0o777;

test("workspaces: each session's pi works in a private directory of its own, and deleting the session removes it", async () => {
  const workspacesDir = join(mkdtempSync(join(tmpdir(), "pi-kit-workspaces-")), "workspaces");
  const keys = await ticketKeys();
  const bridge = await startTicketBridge(keys, { workspacesDir });
  try {
    const one = await connect(bridge, "one");
    const two = await connect(bridge, "two");
    const carol = await connect(
      withTicket(bridge, await mint(keys, { sub: "carol", sessionPrefix: "" })),
      "one",
    );
    const carolDir = join(workspacesDir, userOwner("carol"), "one");
    assert.equal(await bash(one, "pwd"), `${join(workspacesDir, "one")}\n`);
    assert.equal(await bash(two, "pwd"), `${join(workspacesDir, "two")}\n`);
    assert.equal(await bash(carol, "pwd"), `${carolDir}\n`);
    assert.match(await bash(one, "echo mine > notes.txt && ls"), /^notes\.txt\n$/);
    assert.match(await bash(two, "ls -A"), /^(?:\(no output\))?$/);
    assert.equal(readFileSync(join(workspacesDir, "one", "notes.txt"), "utf8"), "mine\n");
    for (const dir of [workspacesDir, join(workspacesDir, "one"), carolDir]) {
      assert.equal(mode(dir), 0o700, dir);
    }
    await one.close();
    const deleted = await api(bridge, bridge.token, "/sessions/one", { method: "DELETE" });
    assert.equal(deleted.status, 204);
    assert.equal(existsSync(join(workspacesDir, "one")), false, "the deleted session's files");
    assert.equal(existsSync(carolDir), true, "another user's session of the same name stays");
    assert.equal(existsSync(join(workspacesDir, "two")), true);
    // The readiness check covers the workspaces directory too.
    assert.equal((await fetch(`${bridge.url}/readyz`)).status, 200);
    await two.close();
    await carol.close();
  } finally {
    await bridge.dispose();
    rmSync(join(workspacesDir, ".."), { recursive: true, force: true });
  }
});

test("workspaces: a workspaces directory others could get at is refused at start", () => {
  const scratch = mkdtempSync(join(tmpdir(), "pi-kit-workspaces-"));
  try {
    const open = join(scratch, "open");
    const start = () =>
      createBridge(
        {
          pi: { command: "pi" },
          token: generateToken(),
          sessionsDir: join(scratch, "sessions"),
          workspacesDir: open,
        },
        {} as Parameters<typeof createBridge>[1],
      );
    start();
    assert.equal(mode(open), 0o700);
    chmodSync(open, 0o777);
    assert.throws(
      start,
      (error: unknown) =>
        error instanceof BridgeError &&
        error.code === "invalid_options" &&
        /^Unsafe workspaces directory: .* writable by its group and others .*chmod 700/.test(
          error.message,
        ),
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
