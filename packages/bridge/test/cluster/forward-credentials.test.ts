/**
 * A forwarded request keeps the caller's identity, however the caller authenticated: the static
 * token or a ticket, as a subprotocol entry or an `Authorization: Bearer` header, on a socket or
 * an HTTP call. The node that forwards vouches for what it authenticated with a signature only
 * the cluster's nodes can make; the owner keeps the viewer's label, its read-only grant and the
 * origin it logs, and refuses an identity a client made up.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { PROTOCOL_V1 } from "@pi-kit/protocol/bridge";
import { WebSocket } from "ws";
import {
  IDENTITY_HEADER,
  IDENTITY_QUERY,
  identitySigner,
} from "../../src/cluster/forwarded-identity.ts";
import { generateToken } from "../../src/index.ts";
import { connect, type Rec, startBridge, type TestBridge, type TestClient } from "../helpers.ts";
import { mint, type TicketKeys, ticketKeys, withTicket } from "../ticket-helpers.ts";
import { startRedis, type TestRedis } from "./redis-server.ts";

const ORIGIN = "https://app.example";
let redis: TestRedis;
let keys: TicketKeys;
let a: TestBridge;
let b: TestBridge;
const temps: string[] = [];
const held: TestClient[] = [];

function tempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `pi-kit-forward-creds-${label}-`));
  temps.push(dir);
  return dir;
}

before(async () => {
  redis = await startRedis();
  keys = await ticketKeys();
  const sessionsDir = tempDir("sessions");
  const node = (token?: string) =>
    startBridge({
      sessionsDir,
      tickets: keys.options,
      origins: [ORIGIN],
      ...(token === undefined ? {} : { token }),
      cluster: { redisUrl: redis.url, leaseTtlMs: 3000, indexDir: tempDir("index") },
    });
  a = await node();
  b = await node(a.token);
  // Both sessions run on A: the bridge's own, and ticket user alice's.
  held.push(await connect(a, "own"));
  const alice = await mint(keys, { sub: "alice", sessions: ["chat"] });
  held.push(await connect(withTicket(a, alice), "chat"));
});

after(async () => {
  for (const client of held) await client.close();
  await b?.dispose();
  await a?.dispose();
  await redis?.stop();
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A socket to `url` with these subprotocols and headers; resolves with its first record. */
async function firstRecord(
  url: string,
  protocols: string[],
  headers: Record<string, string>,
): Promise<{ first: Rec; socket: WebSocket }> {
  const socket = new WebSocket(url, protocols, { headers });
  return new Promise((resolve, reject) => {
    socket.once("message", (data) => resolve({ first: JSON.parse(String(data)) as Rec, socket }));
    socket.once("close", (code, reason) => reject(new Error(`closed ${code} ${reason}`)));
    socket.once("unexpected-response", (_request, response) =>
      reject(new Error(`refused ${response.statusCode}`)),
    );
    socket.once("error", reject);
  });
}

async function closed(socket: WebSocket): Promise<void> {
  if (socket.readyState === WebSocket.CLOSED) return;
  const done = new Promise((resolve) => socket.once("close", resolve));
  socket.close(1000);
  await done;
}

/** Node A's id, as its responses name it. */
async function nodeId(bridge: TestBridge): Promise<string | null> {
  const response = await fetch(`${bridge.url}/healthz`);
  await response.body?.cancel();
  return response.headers.get("pi-kit-node");
}

test("forwarded socket: the token or a ticket, in a subprotocol entry or a Bearer header, reaches the owner as the caller; label, read-only and origin kept", async () => {
  const alice = await mint(keys, { sub: "alice", sessions: ["chat"] });
  const watcher = await mint(keys, { sub: "alice", sessions: ["chat"], readOnly: true });
  const ways: [string, string, string[], Record<string, string>, boolean][] = [
    ["token, subprotocol", "own", [PROTOCOL_V1, `pi-kit.token.${a.token}`], {}, false],
    ["token, Bearer header", "own", [PROTOCOL_V1], { authorization: `Bearer ${a.token}` }, false],
    ["ticket, subprotocol", "chat", [PROTOCOL_V1, `pi-kit.token.${alice}`], {}, false],
    ["ticket, Bearer header", "chat", [PROTOCOL_V1], { authorization: `Bearer ${alice}` }, false],
    [
      "read-only ticket, header",
      "chat",
      [PROTOCOL_V1],
      { authorization: `Bearer ${watcher}` },
      true,
    ],
  ];
  for (const [way, session, protocols, headers, readOnly] of ways) {
    const label = `via B (${way})`;
    const url = `${b.wsUrl(session)}?label=${encodeURIComponent(label)}`;
    const opensBefore = a.log.filter((e) => e.event === "connection_open").length;
    const { first, socket } = await firstRecord(url, protocols, { ...headers, origin: ORIGIN });
    try {
      assert.equal(first.type, "bridge_control", way);
      const you = first.you as { label: string; readOnly: boolean };
      assert.equal(you.label, label, `${way}: the owner knows the viewer's label`);
      assert.equal(you.readOnly, readOnly, `${way}: the grant's read-only travels`);
      const opened = a.log.filter((e) => e.event === "connection_open").slice(opensBefore);
      assert.deepEqual(
        opened.map((e) => (e as { origin: string | null }).origin),
        [ORIGIN],
        `${way}: the owner logs the caller's origin`,
      );
    } finally {
      await closed(socket);
    }
  }
  // A socket with no subprotocol at all (a plain client with the header) is forwarded too.
  const { first, socket } = await firstRecord(b.wsUrl("own"), [], {
    authorization: `Bearer ${a.token}`,
  });
  assert.equal(typeof first.type, "string");
  await closed(socket);
  assert.equal(b.bridge.sessions.all().length, 0, "no pi on B");
  const forwards = b.log.filter((e) => e.event === "forwarded" && e.kind === "websocket");
  assert.equal(forwards.length, ways.length + 1);
  assert.ok(forwards.every((e) => (e as { outcome: string }).outcome === "ok"));
});

test("forwarded HTTP: the token or a ticket as a Bearer header reaches the owner as the caller", async () => {
  const alice = await mint(keys, { sub: "alice", sessions: ["chat"] });
  const owner = await nodeId(a);
  const forwardsBefore = b.log.filter((e) => e.event === "forwarded" && e.kind === "http").length;
  for (const [credential, session] of [
    [a.token, "own"],
    [alice, "chat"],
  ] as const) {
    // A change, which only the owner may make: B forwards it.
    const response = await fetch(`${b.url}/api/sessions/${session}`, {
      method: "PATCH",
      headers: {
        authorization: `Bearer ${credential}`,
        origin: ORIGIN,
        "content-type": "application/json",
      },
      body: JSON.stringify({ title: `Renamed through B (${session})` }),
    });
    assert.equal(response.status, 200, session);
    assert.equal(response.headers.get("pi-kit-node"), owner, `${session}: the owner answered`);
    await response.body?.cancel();
  }
  const forwards = b.log.filter((e) => e.event === "forwarded" && e.kind === "http");
  assert.equal(forwards.length - forwardsBefore, 2);
  const readOnly = await mint(keys, { sub: "alice", sessions: ["chat"], readOnly: true });
  const refused = await fetch(`${b.url}/api/sessions/chat`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${readOnly}`, "content-type": "application/json" },
    body: JSON.stringify({ title: "Not allowed" }),
  });
  assert.equal(refused.status, 403, "a read-only ticket stays read-only through the forward");
  await refused.body?.cancel();
});

test("forwarded identity: the owner refuses one a client made up, signed with another key, or replayed on another path", async () => {
  const signed = (token: string, path: string) =>
    identitySigner(token).sign({ owner: "", name: "own", readOnly: false }, "GET", path);
  const attempts: [string, string][] = [
    ["made up", "eyJvIjoiIn0.AAAA"],
    ["another key", await signed(generateToken(), "/api/sessions/own")],
    ["another path", await signed(a.token, "/api/sessions/other")],
  ];
  for (const [what, credential] of attempts) {
    const response = await fetch(`${a.url}/api/sessions/own`, {
      headers: { [IDENTITY_HEADER]: credential },
    });
    assert.equal(response.status, 401, what);
    await response.body?.cancel();
    const socket = new WebSocket(
      `${a.wsUrl("own")}?${IDENTITY_QUERY}=${encodeURIComponent(credential)}`,
      [PROTOCOL_V1],
    );
    // A pi-kit client's refused handshake opens and closes at once with the refusal's code.
    const code = await new Promise<number>((resolve) => {
      socket.once("close", (closeCode) => resolve(closeCode));
      socket.once("error", () => {});
    });
    assert.equal(code, 4401, `${what}: the socket is refused as unauthenticated`);
  }
  const genuine = await signed(a.token, "/api/sessions/own");
  const response = await fetch(`${a.url}/api/sessions/own`, {
    headers: { [IDENTITY_HEADER]: genuine },
  });
  assert.equal(response.status, 200, "the same identity, signed by a node, is taken");
  await response.body?.cancel();
});

test("identitySigner: bound to method and path, good for half a minute either way", async () => {
  let now = 1_000_000;
  const signer = identitySigner(generateToken(), () => now);
  const identity = {
    owner: "_users/alice",
    name: "chat",
    readOnly: true,
    expiresAt: 5,
    origin: ORIGIN,
  };
  const credential = await signer.sign(identity, "get", "/sessions/chat/ws");
  assert.deepEqual(await signer.verify(credential, "GET", "/sessions/chat/ws"), identity);
  assert.equal(await signer.verify(credential, "POST", "/sessions/chat/ws"), undefined);
  assert.equal(await signer.verify(credential, "GET", "/sessions/other/ws"), undefined);
  const [body, mac] = credential.split(".");
  assert.equal(await signer.verify(`${body}x.${mac}`, "GET", "/sessions/chat/ws"), undefined);
  now += 31_000;
  assert.equal(await signer.verify(credential, "GET", "/sessions/chat/ws"), undefined, "expired");
});
