/**
 * One principal never reaches another's session (issue 18): the static token reaches only the
 * bridge's own sessions, a ticket user only their own, whatever spelling of a name they try, on
 * the socket and on every HTTP route; and a registry key is made only from a valid name.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { BridgeCloseCode } from "@pi-kit/protocol/bridge";
import { BridgeError } from "../../src/index.ts";
import {
  BRIDGE_OWNER,
  parseSessionKey,
  sessionKey,
  splitKey,
  userOwner,
} from "../../src/principals/owner.ts";
import { connect, type Rec, rawUpgrade } from "../helpers.ts";
import { api, mint, startTicketBridge, ticketKeys, withTicket } from "../ticket-helpers.ts";

test("keys: a key is made only from a valid name, and no two owners make the same key", () => {
  const owners = [
    BRIDGE_OWNER,
    userOwner("bob"),
    userOwner("Bob"),
    userOwner("_users/bob"),
    userOwner("bob/x"),
    userOwner("bob\\x"),
    userOwner("~62ob"),
  ];
  const names = ["x", "bob", "users", "a-b_c", "X"];
  const keys = new Map<string, string>();
  for (const owner of owners) {
    for (const name of names) {
      const key = sessionKey(owner, name);
      assert.deepEqual(splitKey(key), { owner, name });
      assert.equal(parseSessionKey(key), key);
      const other = keys.get(key);
      assert.equal(other, undefined, `${JSON.stringify([owner, name])} and ${other} share ${key}`);
      keys.set(key, JSON.stringify([owner, name]));
    }
  }
  const spellings = [
    "_users/bob/x",
    "_users%2Fbob%2Fx",
    "_users\\bob\\x",
    "../bob/x",
    "..",
    ".x",
    "_users",
    "",
    "x/",
    "a".repeat(65),
  ];
  for (const owner of owners) {
    for (const name of spellings) {
      assert.throws(
        () => sessionKey(owner, name),
        (error: unknown) => error instanceof BridgeError && error.code === "invalid_session_name",
        JSON.stringify([owner, name]),
      );
    }
  }
  for (const key of ["_users/bob", "_users//x", "_users/bob/../x", "_users/Bob/x", "a/b"]) {
    assert.equal(parseSessionKey(key), undefined, key);
  }
});

/** Every way to spell bob's registry key `_users/bob/x` (and near misses) as a path segment. */
const SPELLINGS = [
  "_users%2Fbob%2Fx",
  "_users%2fbob%2fx",
  "_users%252Fbob%252Fx",
  "_users%5Cbob%5Cx",
  "_users%5cbob%5cx",
  "..%2F..%2F_users%2Fbob%2Fx",
  "..%2Fbob%2Fx",
  "_users",
  "_users%2Fbob",
  "%5Fusers%2Fbob%2Fx",
];

test("principals: no spelling of a user's session reaches it, with the static token or another ticket", async () => {
  const keys = await ticketKeys();
  const bridge = await startTicketBridge(keys);
  try {
    const bob = await mint(keys, { sub: "bob", sessionPrefix: "" });
    const mallory = await mint(keys, { sub: "mallory", sessionPrefix: "" });
    // Bob's running session, with a canary in its transcript.
    const bobX = await connect(withTicket(bridge, bob), "x");
    await bobX.request({ type: "prompt", message: "[[text bob canary 7731]]" }, 30_000);
    await bobX.waitFor((r) => r.type === "agent_end", 30_000);
    assert.ok(bridge.bridge.sessions.get("_users/bob/x")?.alive);
    const running = bridge.bridge.sessions.size;

    const credentials = [
      { who: "static token", credential: bridge.token },
      { who: "mallory's ticket", credential: mallory },
    ];
    for (const { who, credential } of credentials) {
      for (const name of SPELLINGS) {
        const what = `${who}, ${name}`;
        // The socket, as a pi-kit client: refused with 4400 and the code, never bob's records.
        const socket = await connect({ wsUrl: bridge.wsUrl, token: credential }, name);
        // A socket that reaches a session hears who controls it at once; a refused one closes.
        const attached = await socket
          .waitFor((r) => r.type === "bridge_control", 30_000)
          .then(
            () => true,
            () => false,
          );
        assert.equal(attached, false, `${what}: the socket reached a session`);
        const closed = await socket.closed;
        assert.equal(closed.code, BridgeCloseCode.BadRequest, what);
        assert.equal((JSON.parse(closed.reason) as Rec).code, "invalid_session_name", what);
        assert.doesNotMatch(JSON.stringify(socket.records), /canary/, what);
        // The socket without pi-kit.v1: the HTTP status.
        const raw = await rawUpgrade(bridge, `/sessions/${name}/ws`, {
          authorization: `Bearer ${credential}`,
        });
        assert.equal(raw.status, 400, what);
        // Every HTTP route on one session.
        const routes: Array<{ method: string; path: string; body?: unknown }> = [
          { method: "GET", path: `/sessions/${name}` },
          { method: "PATCH", path: `/sessions/${name}`, body: { title: "taken" } },
          { method: "POST", path: `/sessions/${name}/stop` },
          { method: "DELETE", path: `/sessions/${name}` },
          { method: "POST", path: "/sessions", body: { name: decodeURIComponent(name) } },
        ];
        for (const route of routes) {
          const response = await api(bridge, credential, route.path, route);
          const body = (await response.json()) as Rec;
          assert.equal(response.status, 400, `${what}: ${route.method} ${route.path}`);
          assert.equal(body.code, "invalid_session_name", `${what}: ${route.method} ${route.path}`);
          assert.doesNotMatch(JSON.stringify(body), /canary/);
        }
      }
      // Without a credential nothing is said about a name: 401 first.
      for (const name of SPELLINGS) {
        const response = await fetch(`${bridge.url}/api/sessions/${name}`);
        assert.equal(response.status, 401, name);
        assert.equal(((await response.json()) as Rec).code, "missing_token", name);
        const socket = await connect({ wsUrl: bridge.wsUrl, token: "" }, name).catch(
          () => undefined,
        );
        if (socket !== undefined)
          assert.equal((await socket.closed).code, BridgeCloseCode.Unauthorized);
      }
      // The raw backslash, which a URL parser would turn into a slash.
      const raw = await rawUpgrade(bridge, "/sessions/_users\\bob\\x/ws", {
        authorization: `Bearer ${credential}`,
      });
      assert.ok([400, 404].includes(raw.status), `${who}: raw backslash`);
      // The list shows none of bob's sessions.
      const listed = (await (await api(bridge, credential, "/sessions")).json()) as {
        sessions: Array<{ name: string }>;
      };
      assert.ok(!listed.sessions.some((s) => s.name === "x"), who);
    }
    // Bob's session is untouched: still running, still his alone, his title unchanged.
    assert.ok(bridge.bridge.sessions.get("_users/bob/x")?.alive);
    assert.equal(bridge.bridge.sessions.size, running);
    const control = bobX.records.filter((r) => r.type === "bridge_control").at(-1);
    assert.equal(control?.viewers, 1);
    const summary = (await (await api(bridge, bob, "/sessions/x")).json()) as {
      session: { title: string | null };
    };
    assert.notEqual(summary.session.title, "taken");
    await bobX.close();
  } finally {
    await bridge.dispose();
  }
});
