/**
 * Live: per-user tickets through the real bridge (`@pi-kit/bridge`), real pi 1.x and the scripted
 * model. The WebSocket transport and `BridgeSessionHistory` take a ticket, or a function that
 * mints a fresh one for every connection and call.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { ServedBridge } from "@pi-kit/bridge";
import { piCommand, sessionHostOptions, startModelServer } from "@pi-kit/testing";
import { SignJWT } from "jose";
import {
  BridgeSessionHistory,
  PiClient,
  PiClientError,
  SessionHistoryError,
  WebSocketCloseError,
  type WebSocketTransport,
} from "../../src/index.ts";
import { createNodeWebSocketTransport } from "../../src/ws-node.ts";

const SECRET = "client-test-secret-0123456789-abcdefgh";
const runtime =
  (globalThis as { Bun?: unknown }).Bun !== undefined
    ? "bun"
    : (globalThis as { Deno?: unknown }).Deno !== undefined
      ? "deno"
      : "node";

let served: ServedBridge;
let dispose: () => Promise<void>;
before(async () => {
  const model = await startModelServer();
  const pi = piCommand({ version: "1", baseUrl: model.baseUrl });
  const adapter =
    runtime === "bun"
      ? await import("@pi-kit/bridge/bun")
      : runtime === "deno"
        ? await import("@pi-kit/bridge/deno")
        : await import("@pi-kit/bridge/node");
  served = await adapter.serveBridge({
    ...sessionHostOptions(pi),
    port: 0,
    logger: () => {},
    tickets: { secret: SECRET },
    stopTimeouts: { stdinCloseMs: 2000, sigtermMs: 1000 },
  });
  dispose = async () => {
    await served.close();
    await model.close();
    pi.dispose();
  };
});
after(() => dispose());

/** Mints a ticket as an application's backend would. */
function mint(sub: string, expiresIn = 60): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sessionPrefix: "" })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(sub)
    .setAudience("pi-kit-bridge")
    .setJti(crypto.randomUUID())
    .setExpirationTime(now + expiresIn)
    .sign(new TextEncoder().encode(SECRET));
}

const wsUrl = (name: string): string => `${served.url.replace(/^http/, "ws")}/sessions/${name}/ws`;

/** Resolves once the transport is open on a connection of this generation. */
function openGeneration(transport: WebSocketTransport, generation: number): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      const state = transport.state;
      if (state.status === "open" && state.generation >= generation) {
        transport.removeEventListener("statechange", check);
        resolve();
      }
    };
    transport.addEventListener("statechange", check);
    check();
  });
}

test("websocket: a ticket function is asked for a fresh ticket on every connection", async () => {
  const minted: string[] = [];
  const transport = await createNodeWebSocketTransport({
    url: wsUrl("chat"),
    token: async () => {
      const ticket = await mint("erin");
      minted.push(ticket);
      return ticket;
    },
    reconnect: { initialDelayMs: 20, maxDelayMs: 100 },
  });
  const client = await PiClient.connect(transport, { handshakeTimeoutMs: 30_000 });
  try {
    await client.prompt("[[text first answer]]");
    await client.waitForSettled({ timeoutMs: 30_000 });
    assert.equal(minted.length, 1);
    transport.reconnect();
    await openGeneration(transport, 2);
    assert.equal(minted.length, 2);
    assert.notEqual(minted[0], minted[1]);
    await client.prompt("[[text second answer]]");
    await client.waitForSettled({ timeoutMs: 30_000 });
    const text = JSON.stringify(await client.getMessages());
    assert.match(text, /first answer/);
    assert.match(text, /second answer/);
  } finally {
    await client.close();
  }
});

test("websocket: a token function that fails is retried with backoff; an expired ticket is final (4401)", async () => {
  let calls = 0;
  const flaky = await createNodeWebSocketTransport({
    url: wsUrl("flaky"),
    token: () => {
      calls++;
      if (calls === 1) throw new Error("the login service is down");
      return mint("erin");
    },
    reconnect: { initialDelayMs: 20, maxDelayMs: 100 },
  });
  await openGeneration(flaky, 1);
  assert.equal(calls, 2);
  await flaky.close();

  const expired = await createNodeWebSocketTransport({
    url: wsUrl("chat"),
    token: () => mint("erin", -60),
    reconnect: { initialDelayMs: 20, maxDelayMs: 100 },
  });
  const closed = await expired.closed;
  assert.equal(closed.reason, "error");
  const error = closed.error as WebSocketCloseError;
  assert.ok(error instanceof WebSocketCloseError);
  assert.equal(error.code, 4401);
  assert.equal((JSON.parse(error.reason) as { code: string }).code, "ticket_expired");
});

test("history: a ticket function per call; each user sees only their sessions", async () => {
  let calls = 0;
  const frank = new BridgeSessionHistory({
    baseUrl: served.url,
    token: () => {
      calls++;
      return mint("frank");
    },
  });
  await frank.create("notes");
  // A conversation is listed once it has a message or a title.
  await frank.rename("notes", "Notes");
  const page = await frank.list();
  assert.deepEqual(
    page.sessions.map((s) => s.name),
    ["notes"],
  );
  assert.equal(calls, 3);
  const grace = new BridgeSessionHistory({ baseUrl: served.url, token: await mint("grace") });
  assert.ok(!(await grace.list()).sessions.some((s) => s.name === "notes"));
  await assert.rejects(grace.rename("notes", "mine"), (error: unknown) => {
    return error instanceof SessionHistoryError && error.code === "not_found";
  });
  const failing = new BridgeSessionHistory({
    baseUrl: served.url,
    token: () => Promise.reject(new Error("no session cookie")),
  });
  await assert.rejects(failing.list(), (error: unknown) => {
    return error instanceof SessionHistoryError && error.code === "unauthorized";
  });
  const expired = new BridgeSessionHistory({
    baseUrl: served.url,
    token: await mint("frank", -60),
  });
  await assert.rejects(expired.list(), (error: unknown) => {
    return (
      error instanceof SessionHistoryError &&
      error.code === "unauthorized" &&
      error.hostCode === "ticket_expired"
    );
  });
});

test("websocket: a controller on 3 s tickets is renewed quietly through a long streamed run", async () => {
  const minted: string[] = [];
  let calls = 0;
  const transport = await createNodeWebSocketTransport({
    url: wsUrl("renewed"),
    token: async () => {
      // The first renewal meets a blip of the login service: asked again, still in time.
      if (++calls === 2) throw new Error("the login service blinked");
      const ticket = await mint("heidi", 3);
      minted.push(ticket);
      return ticket;
    },
    reconnect: { initialDelayMs: 20, maxDelayMs: 100 },
  });
  const statuses: string[] = [];
  transport.addEventListener("statechange", () => statuses.push(transport.state.status));
  const client = await PiClient.connect(transport, { handshakeTimeoutMs: 30_000 });
  try {
    // 60 chunks 250 ms apart: at least 15 s, five times a ticket's life.
    await client.prompt("[[slow 250ms x 60]]");
    await client.waitForSettled({ timeoutMs: 120_000 });
    const generation = transport.state.status === "open" ? transport.state.generation : 0;
    assert.ok(generation >= 3, `renewed ${generation - 1} times during the run`);
    assert.ok(minted.length >= generation);
    // Quiet: never "reconnecting", still the one in control, nothing lost.
    assert.ok(!statuses.includes("reconnecting"), statuses.join(" "));
    assert.equal(transport.control?.inControl, true);
    const transcript = client.session.getSnapshot().messages;
    assert.deepEqual(transcript, await client.getMessages());
    assert.match(JSON.stringify(transcript.at(-1)), /tick 60/);
  } finally {
    await client.close();
  }
});

test("websocket: a client whose ticket function stops answering is cut off at expiry, and nothing reaches pi after", async () => {
  // pi is started first, so the 2 s ticket's connection needs only a quick get_state, whatever
  // the machine's load.
  const warm = await PiClient.connect(
    await createNodeWebSocketTransport({ url: wsUrl("cut"), token: await mint("ivan") }),
    { handshakeTimeoutMs: 30_000 },
  );
  await warm.close();
  let answering = true;
  const transport = await createNodeWebSocketTransport({
    url: wsUrl("cut"),
    token: () => (answering ? mint("ivan", 2) : new Promise<string>(() => {})),
    reconnect: { initialDelayMs: 20, maxDelayMs: 100 },
  });
  const client = await PiClient.connect(transport, { handshakeTimeoutMs: 30_000 });
  answering = false;
  const closed = await transport.closed;
  const error = closed.error;
  assert.ok(error instanceof WebSocketCloseError);
  assert.equal(error.code, 4401);
  assert.equal(error.bridgeCode, "ticket_expired");
  await assert.rejects(client.prompt("[[text too late]]"), (rejected: unknown) => {
    return (
      rejected instanceof PiClientError &&
      rejected.bridgeCode === "ticket_expired" &&
      rejected.closeCode === 4401
    );
  });
  // A function that keeps giving the same ticket renews nothing (no reconnect loop near the
  // expiry) and is cut off the same way.
  const same = await mint("judy", 2);
  let asked = 0;
  const cached = await createNodeWebSocketTransport({
    url: wsUrl("cached"),
    token: () => {
      asked++;
      return same;
    },
  });
  const closedToo = await cached.closed;
  assert.equal((closedToo.error as WebSocketCloseError).bridgeCode, "ticket_expired");
  assert.equal(cached.generation, 1);
  // Asked at the start, at the renewal, then at most a few times more before the expiry.
  assert.ok(asked >= 2 && asked <= 6, `asked ${asked} times`);
  const observer = await PiClient.connect(
    await createNodeWebSocketTransport({ url: wsUrl("cut"), token: await mint("ivan") }),
    { handshakeTimeoutMs: 30_000 },
  );
  try {
    assert.doesNotMatch(JSON.stringify(await observer.getMessages()), /too late/);
  } finally {
    await observer.close();
  }
});
