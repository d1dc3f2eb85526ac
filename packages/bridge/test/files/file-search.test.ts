/**
 * `GET /api/sessions/{name}/files`: the workspace file search for `@` mentions, against a real
 * bridge with per-user workspaces and pi under the bubblewrap sandbox. The probe set (links out,
 * `..`, encoded names, ignored files, another user's workspace) must return nothing outside what
 * the caller may see; a file pi wrote a moment ago is found; bad queries are typed 400s.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { test } from "node:test";
import { BridgeFileSearch } from "@pi-kit/client";
import type { FileSearchPage } from "@pi-kit/protocol/bridge";
import { userOwner } from "../../src/principals/owner.ts";
import { bash, connect } from "../helpers.ts";
import { api, mint, startTicketBridge, ticketKeys, withTicket } from "../ticket-helpers.ts";

test("file search: confined to the caller's own workspace, honouring .gitignore, finding what pi just wrote", async () => {
  const keys = await ticketKeys();
  const scratch = mkdtempSync(join(tmpdir(), "pi-kit-file-search-"));
  const workspacesDir = join(scratch, "workspaces");
  const bridge = await startTicketBridge(keys, { sandbox: "bwrap", workspacesDir });
  try {
    const aliceTicket = await mint(keys, { sub: "alice", sessionPrefix: "" });
    const bobTicket = await mint(keys, { sub: "bob", sessionPrefix: "" });
    const alice = await connect(withTicket(bridge, aliceTicket), "work");
    const bob = await connect(withTicket(bridge, bobTicket), "work");
    const aliceDir = join(workspacesDir, userOwner("alice"), "work");
    const bobDir = join(workspacesDir, userOwner("bob"), "work");
    // Bob's files, and a secret outside every workspace.
    writeFileSync(join(bobDir, "bob-secret.txt"), "bob");
    writeFileSync(join(scratch, "host-secret.txt"), "host");
    // Alice's workspace: ordinary files, ignored ones, hidden ones, odd names, and links out.
    mkdirSync(join(aliceDir, "src"));
    mkdirSync(join(aliceDir, "build"));
    mkdirSync(join(aliceDir, ".git"));
    writeFileSync(join(aliceDir, ".gitignore"), "build/\n*.secret\n");
    writeFileSync(join(aliceDir, "src/main.ts"), "");
    writeFileSync(join(aliceDir, "build/out-secret.js"), "");
    writeFileSync(join(aliceDir, "api.secret"), "");
    writeFileSync(join(aliceDir, ".git/secret-config"), "");
    writeFileSync(join(aliceDir, "%2e%2e%2fsecret-looking.md"), "");
    writeFileSync(join(aliceDir, "two words.md"), "");
    symlinkSync(bobDir, join(aliceDir, "bob-link"));
    symlinkSync(join(bobDir, "bob-secret.txt"), join(aliceDir, "bob-secret-link.txt"));
    symlinkSync("../../../../host-secret.txt", join(aliceDir, "src/up-secret.txt"));
    symlinkSync("/etc", join(aliceDir, "etc-link"));
    // pi, in its sandbox, makes a link out of the workspace too.
    await bash(alice, "ln -s / root-link && ln -s .. parent-link");

    const search = async (credential: string, query: string, name = "work") => {
      const response = await api(
        bridge,
        credential,
        `/sessions/${name}/files?q=${encodeURIComponent(query)}&limit=200`,
      );
      return {
        status: response.status,
        body: (await response.json()) as FileSearchPage & { code?: string },
      };
    };
    const aliceReal = realpathSync(aliceDir);
    const assertInside = (page: FileSearchPage) => {
      for (const entry of page.entries) {
        const full = realpathSync(join(aliceDir, entry.path));
        assert.ok(
          full === aliceReal || full.startsWith(aliceReal + sep),
          `${entry.path} is inside`,
        );
      }
    };

    const everything = await search(aliceTicket, "");
    assert.equal(everything.status, 200);
    assertInside(everything.body);
    assert.deepEqual(everything.body.entries.map((e) => e.path).sort(), [
      "%2e%2e%2fsecret-looking.md",
      ".gitignore",
      "src",
      "src/main.ts",
      "two words.md",
    ]);
    // The probe set: nothing outside alice's workspace, nothing ignored or hidden.
    for (const probe of [
      "secret",
      "bob",
      "etc",
      "passwd",
      "host",
      "root",
      "parent",
      "%2e%2e",
      "%252e%252e%252f",
    ]) {
      const { status, body } = await search(aliceTicket, probe);
      assert.equal(status, 200, probe);
      assertInside(body);
      const paths = body.entries.map((e) => e.path);
      assert.ok(
        paths.every((p) => p === "%2e%2e%2fsecret-looking.md"),
        `${probe}: ${paths}`,
      );
    }
    for (const probe of ["../", "..", "src/../../bob", "/etc", "~/", "a\u0001"]) {
      const { status, body } = await search(aliceTicket, probe);
      assert.equal(status, 400, probe);
      assert.equal(body.code, "invalid_query", probe);
    }
    // Bob sees his own workspace only, under the same session name.
    const bobs = await search(bobTicket, "");
    assert.deepEqual(
      bobs.body.entries.map((e) => e.path),
      ["bob-secret.txt"],
    );
    // A ticket that does not open the session, a session name with `..`, no credential.
    const narrow = await mint(keys, { sub: "alice", sessions: ["other"] });
    assert.equal((await search(narrow, "")).status, 403);
    const traversal = await search(aliceTicket, "", "..%2F_users%2Fbob%2Fwork");
    assert.deepEqual([traversal.status, traversal.body.code], [400, "invalid_session_name"]);
    assert.equal((await search(aliceTicket, "", "no-such-session")).status, 404);
    assert.equal((await fetch(`${bridge.url}/api/sessions/work/files?q=`)).status, 401);
    // The bridge's own sessions (the static token) have workspaces of their own.
    assert.equal((await search(bridge.token, "", "work")).status, 404);

    // Paging and a bad cursor or limit.
    const first = await api(bridge, aliceTicket, "/sessions/work/files?q=&limit=2");
    const page = (await first.json()) as FileSearchPage;
    assert.equal(page.entries.length, 2);
    assert.equal(typeof page.nextCursor, "string");
    const bad = await api(bridge, aliceTicket, "/sessions/work/files?q=&cursor=zzz");
    assert.deepEqual(await bad.json(), {
      error: "The cursor is not one this search gave out",
      code: "invalid_cursor",
    });
    assert.equal((await api(bridge, aliceTicket, "/sessions/work/files?limit=-1")).status, 400);

    // What pi writes is found at the next search: the index is warm and kept up to date.
    assert.deepEqual((await search(aliceTicket, "fresh-notes")).body.entries, []);
    await bash(alice, "mkdir -p notes && echo hi > notes/fresh-notes.md");
    assert.deepEqual((await search(aliceTicket, "fresh-notes")).body.entries, [
      { path: "notes/fresh-notes.md", kind: "file" },
    ]);

    // The client's BridgeFileSearch reads the same API.
    const files = new BridgeFileSearch({
      baseUrl: bridge.url,
      session: "work",
      token: aliceTicket,
    });
    const found = await files.search({ query: "two words" });
    assert.deepEqual(found.entries[0], { path: "two words.md", kind: "file" });
    await assert.rejects(files.search({ query: "../x" }), {
      code: "invalid_request",
      hostCode: "invalid_query",
      status: 400,
    });
    await alice.close();
    await bob.close();
  } finally {
    await bridge.dispose();
    rmSync(scratch, { recursive: true, force: true });
  }
});
