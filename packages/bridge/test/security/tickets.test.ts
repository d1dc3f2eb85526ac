/**
 * Per-user tickets, live with real pi: every refusal on the socket and the HTTP API, HS256 and
 * EdDSA, confinement of each user to their own sessions, and read-only tickets.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { BridgeCloseCode } from "@pi-kit/protocol/bridge";
import { exportPKCS8, exportSPKI, generateKeyPair } from "jose";
import { BridgeError, createBridge, generateToken, type TicketOptions } from "../../src/index.ts";
import { userOwner } from "../../src/principals/owner.ts";
import { DENIED_PREFIX } from "../../src/security/command-policy.ts";
import { isSessionKey } from "../../src/sessions/session-registry.ts";
import { connect, lineVersions, type Rec, rawUpgrade, startBridge } from "../helpers.ts";
import {
  api,
  mint,
  SECRET,
  startTicketBridge,
  ticketKeys,
  unsigned,
  withTicket,
} from "../ticket-helpers.ts";

test("tickets: each user's directory is one safe name, different for different users", () => {
  const root = "/srv/sessions";
  const subs = [
    "alice",
    "Alice",
    "..",
    ".",
    "../../etc",
    "a/b",
    "a\\b",
    "nul\u0000byte",
    "ünïcødé-用户",
    "~41lice",
    "x".repeat(256),
    `${"x".repeat(255)}y`,
  ];
  const owners = subs.map(userOwner);
  assert.equal(new Set(owners).size, subs.length, "two users share a directory");
  for (const owner of owners) {
    const [users, dir, ...rest] = owner.split("/");
    assert.equal(users, "_users");
    assert.deepEqual(rest, []);
    assert.ok(dir !== undefined && dir.length > 0 && dir.length <= 98, owner);
    assert.ok(dir !== "." && dir !== ".." && !dir.includes("\u0000"), owner);
    assert.ok(resolve(root, owner).startsWith(`${root}/_users/`), owner);
    assert.ok(isSessionKey(`${owner}/main`), owner);
  }
  assert.equal(userOwner("alice"), "_users/alice");
  assert.equal(userOwner("Alice"), "_users/~41lice");
  assert.ok(!isSessionKey("_users/../main"));
  assert.ok(!isSessionKey("_users/alice/../main"));
  assert.ok(!isSessionKey("other/alice/main"));
});

test("tickets: keys that cannot work are refused when the bridge is created", async () => {
  const scratch = mkdtempSync(join(tmpdir(), "pi-kit-tickets-"));
  const { privateKey } = await generateKeyPair("EdDSA", { extractable: true });
  const rsa = await generateKeyPair("RS256", { extractable: true });
  try {
    const options = {
      pi: { command: "pi", args: ["--mode", "rpc"] },
      token: generateToken(),
      sessionsDir: join(scratch, "sessions"),
    };
    const runtime = {} as Parameters<typeof createBridge>[1];
    const cases: Array<[TicketOptions, RegExp]> = [
      [{}, /need a secret or a public key/],
      [{ secret: "short" }, /at least 32 bytes/],
      [{ publicKey: "not a key" }, /Ed25519 public key in SPKI PEM/],
      [{ publicKey: await exportPKCS8(privateKey) }, /Ed25519 public key in SPKI PEM/],
      [{ publicKey: await exportSPKI(rsa.publicKey) }, /Ed25519 public key in SPKI PEM/],
    ];
    for (const [tickets, message] of cases) {
      assert.throws(
        () => createBridge({ ...options, tickets }, runtime),
        (error: unknown) =>
          error instanceof BridgeError &&
          error.code === "invalid_options" &&
          message.test(error.message),
      );
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

test("tickets: every refusal has its status and close code, a code, and logs no value", async () => {
  const keys = await ticketKeys();
  const bridge = await startTicketBridge(keys);
  try {
    const now = Math.floor(Date.now() / 1000);
    const cases: Array<{ what: string; ticket: string; status: number; code: string }> = [
      {
        what: "expired",
        ticket: await mint(keys, { sub: "alice", sessionPrefix: "", expiresIn: -60 }),
        status: 401,
        code: "ticket_expired",
      },
      {
        what: "not yet valid",
        ticket: await mint(keys, { sub: "alice", sessionPrefix: "", notBefore: 600 }),
        status: 401,
        code: "ticket_not_yet_valid",
      },
      {
        what: "wrong signature (HS256)",
        ticket: await mint(keys, {
          sub: "alice",
          sessionPrefix: "",
          secret: "another-secret-0123456789-abcdefghijk",
        }),
        status: 401,
        code: "ticket_bad_signature",
      },
      {
        what: "wrong signature (EdDSA, another key)",
        ticket: await mint(await ticketKeys(), { sub: "alice", sessionPrefix: "", alg: "EdDSA" }),
        status: 401,
        code: "ticket_bad_signature",
      },
      {
        what: "alg none",
        ticket: unsigned({ sub: "alice", sessionPrefix: "", aud: "pi-kit-bridge", exp: now + 60 }),
        status: 401,
        code: "ticket_bad_signature",
      },
      {
        what: "wrong audience",
        ticket: await mint(keys, { sub: "alice", sessionPrefix: "", audience: "another-app" }),
        status: 401,
        code: "ticket_wrong_audience",
      },
      {
        what: "a subject too long",
        ticket: await mint(keys, { sub: "x".repeat(257), sessionPrefix: "" }),
        status: 401,
        code: "ticket_malformed",
      },
      {
        what: "no sessions named",
        ticket: await mint(keys, { sub: "alice" }),
        status: 401,
        code: "ticket_malformed",
      },
      {
        what: "a session outside the ticket",
        ticket: await mint(keys, { sub: "alice", sessions: ["other"], sessionPrefix: "o-" }),
        status: 403,
        code: "session_not_in_ticket",
      },
    ];
    for (const { what, ticket, status, code } of cases) {
      // The socket, as a browser's client sees it: the upgrade, then a close code and reason.
      const client = await connect(withTicket(bridge, ticket), "main");
      const closed = await client.closed;
      const closeCode = status === 401 ? BridgeCloseCode.Unauthorized : BridgeCloseCode.Forbidden;
      assert.equal(closed.code, closeCode, what);
      assert.equal((JSON.parse(closed.reason) as Rec).code, code, what);
      // Without pi-kit.v1, the HTTP status.
      const raw = await rawUpgrade(bridge, "/sessions/main/ws", {
        authorization: `Bearer ${ticket}`,
      });
      assert.equal(raw.status, status, what);
      // The HTTP API.
      const response = await api(bridge, ticket, "/sessions/main");
      assert.equal(response.status, status, what);
      assert.equal(((await response.json()) as Rec).code, code, what);
      const listed = await api(bridge, ticket, "/sessions");
      assert.equal(listed.status, status === 403 ? 200 : 401, what);
    }
    assert.equal(bridge.bridge.sessions.size, 0, "a refused ticket started a pi");
    const log = JSON.stringify(bridge.log);
    for (const { ticket } of cases) assert.ok(!log.includes(ticket), "a ticket was logged");
    assert.ok(!log.includes(SECRET) && !log.includes("alice"), "a secret or a claim was logged");
    const refusals = bridge.log.filter((e) => e.event === "connection_rejected");
    assert.ok(refusals.some((e) => "code" in e && e.code === "ticket_expired"));
  } finally {
    await bridge.dispose();
  }
});

test("tickets: HS256 and EdDSA tickets open the user's session, and real pi answers", async () => {
  const keys = await ticketKeys();
  for (const version of lineVersions) {
    const bridge = await startTicketBridge(keys, { version });
    try {
      for (const alg of ["HS256", "EdDSA"] as const) {
        const ticket = await mint(keys, { sub: `user-${alg}`, sessions: ["chat"], alg });
        const client = await connect(withTicket(bridge, ticket), "chat");
        const response = await client.request(
          { type: "prompt", message: `[[text hello ${alg}]]` },
          30_000,
        );
        assert.equal(response.success, true, `${alg}, pi ${version}`);
        const end = await client.waitFor((r) => r.type === "agent_end", 30_000);
        assert.match(JSON.stringify(end), new RegExp(`hello ${alg}`));
        await client.close();
        const dir = join(bridge.sessionsDir, userOwner(`user-${alg}`), "chat");
        assert.ok(existsSync(dir), `${alg}: the session is in the user's directory`);
      }
      // The static token still opens the bridge's own sessions, and sees none of the users'.
      const own = await connect(bridge, "own");
      assert.equal(own.protocol, "pi-kit.v1");
      await own.close();
      // Titled, it is listed without a message (a session enters the list with either).
      await bridge.bridge.history.rename("own", "Own");
      const page = (await (await api(bridge, bridge.token, "/sessions")).json()) as {
        sessions: Array<{ name: string }>;
      };
      assert.deepEqual(
        page.sessions.map((s) => s.name),
        ["own"],
      );
    } finally {
      await bridge.dispose();
    }
  }
});

test("tickets: a user reaches only their own sessions, even by guessing names", async () => {
  const keys = await ticketKeys();
  const bridge = await startTicketBridge(keys);
  try {
    const alice = await mint(keys, { sub: "alice", sessionPrefix: "" });
    const bob = await mint(keys, { sub: "bob", sessionPrefix: "" });
    // Both have an "a": two sessions, two pi processes, two directories.
    const aliceA = await connect(withTicket(bridge, alice), "a");
    await aliceA.request({ type: "prompt", message: "[[text alice secret]]" }, 30_000);
    await aliceA.waitFor((r) => r.type === "agent_end", 30_000);
    const bobA = await connect(withTicket(bridge, bob), "a");
    // Titled, Bob's "a" is listed without a message (a session enters the list with either).
    assert.equal(
      (await api(bridge, bob, "/sessions/a", { method: "PATCH", body: { title: "Bob's a" } }))
        .status,
      200,
    );
    const messages = await bobA.request({ type: "get_messages" }, 30_000);
    assert.doesNotMatch(JSON.stringify(messages), /alice secret/);
    assert.equal(bridge.bridge.sessions.size, 2);
    assert.notEqual(
      bridge.bridge.sessions.get("_users/alice/a")?.dir,
      bridge.bridge.sessions.get("_users/bob/a")?.dir,
    );
    // Alice's other session, which Bob knows the name of.
    const created = await api(bridge, alice, "/sessions", {
      method: "POST",
      body: { name: "private" },
    });
    assert.equal(created.status, 201);
    const titled = await api(bridge, alice, "/sessions/private", {
      method: "PATCH",
      body: { title: "Alice's private notes" },
    });
    assert.equal(titled.status, 200);
    const bobSees = (await (await api(bridge, bob, "/sessions")).json()) as {
      sessions: Array<{ name: string }>;
    };
    assert.deepEqual(
      bobSees.sessions.map((s) => s.name),
      ["a"],
    );
    assert.equal((await api(bridge, bob, "/sessions/private")).status, 404);
    const renamed = await api(bridge, bob, "/sessions/private", {
      method: "PATCH",
      body: { title: "mine now" },
    });
    assert.equal(renamed.status, 404);
    assert.equal(
      (await api(bridge, bob, "/sessions/private/stop", { method: "POST" })).status,
      404,
    );
    assert.equal((await api(bridge, bob, "/sessions/private", { method: "DELETE" })).status, 404);
    // Path tricks are names the bridge refuses.
    for (const name of ["..%2Falice%2Fprivate", "..", "%2E%2E"]) {
      const response = await api(bridge, bob, `/sessions/${name}`);
      assert.ok([400, 404].includes(response.status), name);
    }
    // Alice's session is untouched and still hers.
    const aliceSees = (await (await api(bridge, alice, "/sessions")).json()) as {
      sessions: Array<{ name: string; title: string | null }>;
    };
    assert.deepEqual(aliceSees.sessions.map((s) => s.name).sort(), ["a", "private"]);
    assert.ok(aliceSees.sessions.every((s) => s.title !== "mine now"));
    // The library's view of each user's history agrees.
    const library = await bridge.bridge.historyOf("alice").list({ limit: 10 });
    assert.deepEqual(library.sessions.map((s) => s.name).sort(), ["a", "private"]);
    const own = await bridge.bridge.history.list({ limit: 10 });
    assert.deepEqual(own.sessions, []);
    assert.ok(existsSync(join(bridge.sessionsDir, "_users", "alice", "private")));
    // A ticket naming some sessions lists only those.
    const narrow = await mint(keys, { sub: "alice", sessions: ["private"] });
    const narrowSees = (await (await api(bridge, narrow, "/sessions")).json()) as {
      sessions: Array<{ name: string }>;
    };
    assert.deepEqual(
      narrowSees.sessions.map((s) => s.name),
      ["private"],
    );
    assert.equal((await api(bridge, narrow, "/sessions/a", { method: "DELETE" })).status, 403);
    await aliceA.close();
    await bobA.close();
  } finally {
    await bridge.dispose();
  }
});

test("tickets: a read-only ticket watches and queries, and changes nothing", async () => {
  const keys = await ticketKeys();
  const bridge = await startTicketBridge(keys);
  try {
    const owner = await mint(keys, { sub: "carol", sessionPrefix: "" });
    const watcher = await mint(keys, { sub: "carol", sessions: ["shared"], readOnly: true });
    // A read-only ticket creates nothing: an unknown session is 4404.
    const early = await connect(withTicket(bridge, watcher), "shared");
    assert.equal((await early.closed).code, BridgeCloseCode.NoSuchSession);
    const created = await api(bridge, watcher, "/sessions", {
      method: "POST",
      body: { name: "shared" },
    });
    assert.equal(created.status, 403);
    assert.equal(((await created.json()) as Rec).code, "ticket_read_only");

    const writer = await connect(withTicket(bridge, owner), "shared");
    await writer.request({ type: "prompt", message: "[[text for the watcher]]" }, 30_000);
    await writer.waitFor((r) => r.type === "agent_end", 30_000);
    await writer.close();

    const watching = await connect(withTicket(bridge, watcher), "shared");
    const state = await watching.request({ type: "get_state" }, 30_000);
    assert.equal(state.success, true);
    const messages = await watching.request({ type: "get_messages" }, 30_000);
    assert.match(JSON.stringify(messages), /for the watcher/);
    const refused = await watching.request({ type: "prompt", message: "[[text sneaky]]" });
    assert.equal(refused.success, false);
    assert.match(String(refused.error), new RegExp(`^${DENIED_PREFIX}.*read-only`));
    const answer = await watching.request({ type: "abort" });
    assert.equal(answer.success, false);
    for (const [method, path, body] of [
      ["PATCH", "/sessions/shared", { title: "renamed" }],
      ["POST", "/sessions/shared/stop", undefined],
      ["DELETE", "/sessions/shared", undefined],
    ] as const) {
      const response = await api(bridge, watcher, path, { method, body });
      assert.equal(response.status, 403, `${method} ${path}`);
      assert.equal(((await response.json()) as Rec).code, "ticket_read_only");
    }
    assert.equal((await api(bridge, watcher, "/sessions/shared")).status, 200);
    assert.equal(bridge.bridge.sessions.get("_users/carol/shared")?.alive, true);
    await watching.close();
  } finally {
    await bridge.dispose();
  }
});

test("tickets: one user runs at most maxSessionsPerUser sessions; others are not held back", async () => {
  const keys = await ticketKeys();
  const bridge = await startTicketBridge(keys, { limits: { maxSessionsPerUser: 1 } });
  try {
    const heidi = await mint(keys, { sub: "heidi", sessionPrefix: "" });
    assert.equal(
      (await api(bridge, heidi, "/sessions", { method: "POST", body: { name: "one" } })).status,
      201,
    );
    const second = await api(bridge, heidi, "/sessions", { method: "POST", body: { name: "two" } });
    assert.equal(second.status, 503);
    assert.equal(((await second.json()) as Rec).code, "too_many_sessions");
    const socket = await connect(withTicket(bridge, heidi), "three");
    assert.equal((await socket.closed).code, BridgeCloseCode.TryAgainLater);
    const ivan = await mint(keys, { sub: "ivan", sessionPrefix: "" });
    assert.equal(
      (await api(bridge, ivan, "/sessions", { method: "POST", body: { name: "one" } })).status,
      201,
    );
    // The bridge's own sessions count only against maxSessions.
    const own = await connect(bridge, "own-1");
    const again = await connect(bridge, "own-2");
    assert.equal(bridge.bridge.sessions.size, 4);
    await own.close();
    await again.close();
  } finally {
    await bridge.dispose();
  }
});

test("tickets: a bridge without tickets treats a JWT as a wrong token", async () => {
  const keys = await ticketKeys();
  const bridge = await startBridge();
  try {
    const ticket = await mint(keys, { sub: "alice", sessionPrefix: "" });
    const response = await api(bridge, ticket, "/sessions");
    assert.equal(response.status, 401);
    assert.equal(((await response.json()) as Rec).error, "Wrong token");
  } finally {
    await bridge.dispose();
  }
});
