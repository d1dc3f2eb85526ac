import assert from "node:assert/strict";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { BridgeWorkspaceChanges } from "@pi-kit/client";
import { BridgeError, createBridge, generateToken } from "../../src/index.ts";
import { userOwner } from "../../src/principals/owner.ts";
import { bash, connect, run, startBridge } from "../helpers.ts";
import { mint, ticketKeys, withTicket } from "../ticket-helpers.ts";

const packageDir = fileURLToPath(new URL("../../", import.meta.url));

test("sandbox: pi answers and edits its workspace, and cannot read homes or other sessions, nor write elsewhere", async () => {
  const secret = `secret-${generateToken()}`;
  // A secret outside any home that this user can read, taken away explicitly.
  const tokenFile = join(packageDir, `.token-${process.pid}`);
  writeFileSync(tokenFile, secret, { mode: 0o600 });
  const bridge = await startBridge({ sandbox: { kind: "bwrap", hidden: [tokenFile] } });
  // The host user's real home, and the home pi is told it has: both hidden.
  const realSecret = join(homedir(), `.pi-kit-sandbox-test-${process.pid}`);
  writeFileSync(realSecret, secret, { mode: 0o600 });
  writeFileSync(join(bridge.pi.home, "secret.txt"), secret);
  const outside = join(bridge.pi.tempRoot, "outside.txt");
  // Under /usr, which the sandbox binds read-only: the package dir may itself sit in /tmp (a CI clone), where the private /tmp hides it.
  const readOnly = join("/usr", `pi-kit-outside-${process.pid}.txt`);
  try {
    // Ready: pi and bwrap are both there.
    assert.equal((await fetch(`${bridge.url}/readyz`)).status, 200);
    const other = await connect(bridge, "other");
    assert.match(await bash(other, "echo other > /tmp/other.txt && echo ok"), /ok/);
    const transcripts = readdirSync(join(bridge.sessionsDir, "other")).filter((f) =>
      f.endsWith(".jsonl"),
    );
    assert.ok(transcripts.length > 0, "the other session has a transcript on the host");

    const client = await connect(bridge, "work");
    // It answers.
    const answer = await run(client, "[[text Sandboxed hello]]");
    const text = answer
      .filter((r) => r.type === "message_update")
      .map((r) => (r.assistantMessageEvent as { delta?: string }).delta ?? "")
      .join("");
    assert.equal(text, "Sandboxed hello");
    // It writes and edits files in its workspace, which the host sees.
    await run(client, "[[write note.txt first line]]");
    await run(client, "[[edit note.txt first => second]]");
    assert.equal(readFileSync(join(bridge.pi.workspace, "note.txt"), "utf8"), "second line");
    assert.match(await bash(client, "echo made > made.txt && cat made.txt"), /made/);
    assert.equal(readFileSync(join(bridge.pi.workspace, "made.txt"), "utf8"), "made\n");
    // The bridge's checkpoints, taken outside the sandbox, saw both; pi cannot see where they are.
    const changes = new BridgeWorkspaceChanges({
      baseUrl: bridge.url,
      session: "work",
      token: bridge.token,
    });
    assert.deepEqual(
      (await changes.changes()).changes.map((c) => `${c.status} ${c.path}`),
      ["added made.txt", "added note.txt"],
    );
    assert.equal(await bash(client, `ls -A ${bridge.sessionsDir}`), "work\n");

    // Homes: the host user's and the one pi was given are empty private directories.
    const homes = await bash(
      client,
      `cat ${realSecret} ${bridge.pi.home}/secret.txt 2>&1; ls -A ~`,
    );
    assert.doesNotMatch(homes, new RegExp(secret));
    assert.match(homes, /No such file/);
    // Other sessions: their directories are not there at all.
    assert.equal(await bash(client, `ls ${bridge.sessionsDir}`), "work\n");
    const transcript = join(bridge.sessionsDir, "other", transcripts[0] as string);
    const read = await bash(client, `head -c 300 ${transcript} 2>&1`);
    assert.match(read, /No such file/);
    assert.doesNotMatch(read, /"type"/);
    // /tmp is private: the other session's file is not in this one's.
    assert.match(await bash(client, "cat /tmp/other.txt 2>&1"), /No such file/);
    // Writing outside the workspace: the file system is read-only, and /tmp goes with the sandbox.
    const writes = await bash(
      client,
      `echo escaped > ${readOnly} 2>&1; echo escaped > ${outside} 2>&1; echo done`,
    );
    assert.match(writes, /Read-only file system/);
    assert.ok(!existsSync(readOnly), "nothing was written beside the package");
    assert.ok(!existsSync(outside), "nothing reached the host's /tmp");
    // pi kept its own settings private: the operator's agent directory is as it was.
    assert.deepEqual(readdirSync(bridge.pi.agentDir).sort(), ["models.json", "settings.json"]);
    await client.close();
    await other.close();
  } finally {
    rmSync(realSecret, { force: true });
    rmSync(tokenFile, { force: true });
    rmSync(readOnly, { force: true });
    await bridge.dispose();
  }
});

test("sandbox: a ticket user's pi sees only its own session and workspace, not another user's nor the bridge's", async () => {
  const keys = await ticketKeys();
  const scratch = mkdtempSync(join(tmpdir(), "pi-kit-sandbox-"));
  const workspacesDir = join(scratch, "workspaces");
  const bridge = await startBridge({ sandbox: "bwrap", tickets: keys.options, workspacesDir });
  try {
    const bob = await connect(
      withTicket(bridge, await mint(keys, { sub: "bob", sessionPrefix: "" })),
      "notes",
    );
    await run(bob, "[[text bob's private notes]]");
    const bobWorkspace = join(workspacesDir, userOwner("bob"), "notes");
    assert.equal(await bash(bob, "echo bob-plans > plans.txt && pwd"), `${bobWorkspace}\n`);
    assert.equal(readFileSync(join(bobWorkspace, "plans.txt"), "utf8"), "bob-plans\n");
    const bobDir = join(bridge.sessionsDir, userOwner("bob"), "notes");
    const bobFile = readdirSync(bobDir).find((f) => f.endsWith(".jsonl")) as string;
    assert.ok(bobFile !== undefined, "bob's transcript is on the host");
    const alice = await connect(
      withTicket(bridge, await mint(keys, { sub: "alice", sessionPrefix: "" })),
      "notes",
    );
    // Of the whole sessions directory, only alice's own session directory is there.
    const listing = await bash(
      alice,
      `ls -A ${bridge.sessionsDir} ${bridge.sessionsDir}/_users 2>&1`,
    );
    assert.doesNotMatch(listing, /bob/);
    const read = await bash(alice, `head -c 300 ${join(bobDir, bobFile)} 2>&1`);
    assert.match(read, /No such file/);
    assert.doesNotMatch(read, /private notes/);
    assert.match(
      await bash(alice, `ls ${join(bridge.sessionsDir, userOwner("alice"))}`),
      /^notes\n$/,
    );
    // Workspaces too: alice works in her own, and bob's is not there at all.
    const aliceWorkspace = join(workspacesDir, userOwner("alice"), "notes");
    assert.equal(await bash(alice, "pwd"), `${aliceWorkspace}\n`);
    const plans = await bash(alice, `cat ${join(bobWorkspace, "plans.txt")} 2>&1`);
    assert.match(plans, /No such file/);
    assert.equal(await bash(alice, `ls -A ${workspacesDir}/_users`), "alice\n");
    await alice.close();
    await bob.close();
  } finally {
    await bridge.dispose();
    rmSync(scratch, { recursive: true, force: true });
  }
});

test("sandbox: a missing bubblewrap or missing user namespaces is a clear error at start", () => {
  const scratch = mkdtempSync(join(tmpdir(), "pi-kit-sandbox-"));
  try {
    const options = {
      pi: { command: "pi", args: ["--mode", "rpc"] },
      token: generateToken(),
      sessionsDir: join(scratch, "sessions"),
    };
    const runtime = {} as Parameters<typeof createBridge>[1];
    const refusal = (command: string): BridgeError => {
      try {
        createBridge({ ...options, sandbox: { kind: "bwrap", command } }, runtime);
      } catch (error) {
        assert.ok(error instanceof BridgeError);
        assert.equal(error.code, "invalid_options");
        return error;
      }
      assert.fail("the bridge started without a working sandbox");
    };
    assert.match(
      refusal(join(scratch, "no-bwrap")).message,
      /^Sandbox unavailable: bubblewrap is not installed .*apt-get install bubblewrap/,
    );
    // What bwrap says where the kernel or a security module forbids user namespaces.
    const denied = join(scratch, "bwrap");
    writeFileSync(
      denied,
      "#!/bin/sh\necho 'bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces.' >&2\nexit 1\n",
    );
    chmodSync(denied, 0o755);
    assert.match(
      refusal(denied).message,
      /^Sandbox unavailable: bubblewrap cannot create the sandbox \(bwrap: No permissions .*\): user namespaces are off or restricted here; allow .*kernel\.unprivileged_userns_clone=1/,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
