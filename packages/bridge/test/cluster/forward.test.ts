/**
 * Forwarding to a session's owner: an HTTP call reaches the owner with its method, path, query,
 * body and credentials, marked as forwarded, and the owner's answer comes back; a WebSocket is
 * relayed both ways in order with each side's close passed on, an owner that dies closes the
 * client with a code it reconnects on, and an unreachable owner is refused before the upgrade;
 * a relay whose client never opened lets the owner go, and a relay closed by its node (its life
 * ended) closes both sides.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { after, before, test } from "node:test";
import { serve } from "@hono/node-server";
import { PROTOCOL_V1 as SUBPROTOCOL } from "@pi-kit/protocol/bridge";
import { Hono } from "hono";
import { WebSocket, WebSocketServer } from "ws";
import {
  connectOwner,
  FORWARDED_BY,
  forwardRequest,
  type OwnerLink,
  type OwnerSocketConstructor,
  ownerUrl,
} from "../../src/cluster/forward.ts";
import { freePort } from "./redis-server.ts";

/** The WebSocket part runs the forwarder on the Node adapter's runtime. */
const onNode = !("Deno" in globalThis) && !("Bun" in globalThis);

async function listen(server: Server): Promise<string> {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text;
}

test("ownerUrl: keeps path and query, takes the owner's origin, and switches to ws for sockets", () => {
  assert.equal(
    ownerUrl("http://proxy:80/api/sessions/a%20b?x=1", "http://10.0.0.2:8787"),
    "http://10.0.0.2:8787/api/sessions/a%20b?x=1",
  );
  assert.equal(
    ownerUrl("http://proxy/sessions/main/ws?t=2", "https://n2.internal:8443", "ws"),
    "wss://n2.internal:8443/sessions/main/ws?t=2",
  );
});

test("forwardRequest: the owner gets method, path, query, body and credentials, marked forwarded; its answer comes back", async () => {
  const owner = createServer(async (req, res) => {
    const seen = {
      method: req.method,
      url: req.url,
      body: await bodyOf(req),
      authorization: req.headers.authorization,
      forwardedBy: req.headers[FORWARDED_BY],
      connectionHeader: req.headers["x-hop"],
    };
    res.writeHead(201, {
      "content-type": "application/json",
      "x-owner": "n2",
      connection: "close",
    });
    res.end(JSON.stringify(seen));
  });
  const base = await listen(owner);
  try {
    const request = new Request("http://proxy.example/api/sessions/main/stop?force=1", {
      method: "POST",
      headers: { authorization: "Bearer t0ken", connection: "x-hop", "x-hop": "drop me" },
      body: JSON.stringify({ why: "test" }),
    });
    const response = await forwardRequest(request, base, "n1");
    assert.equal(response.status, 201);
    assert.equal(response.headers.get("x-owner"), "n2");
    assert.equal(response.headers.get("connection"), null, "hop-by-hop headers stay on their hop");
    assert.deepEqual(await response.json(), {
      method: "POST",
      url: "/api/sessions/main/stop?force=1",
      body: '{"why":"test"}',
      authorization: "Bearer t0ken",
      forwardedBy: "n1",
    });
    const get = await forwardRequest(new Request("http://proxy/api/sessions/x"), base, "n1");
    assert.equal(((await get.json()) as { method: string }).method, "GET");
  } finally {
    owner.close();
  }
});

/** A forwarder on the Node adapter: sockets to /sessions/:name/ws are relayed to `owner()`. */
async function startForwarder(owner: () => string, ended: (by: string, code: number) => void) {
  const { nodeWebSocket } = await import("../../src/adapters/node.ts");
  const sockets = nodeWebSocket();
  const links: OwnerLink[] = [];
  const app = new Hono();
  app.get("/sessions/:name/ws", async (c) => {
    const offered = (c.req.header("sec-websocket-protocol") ?? "").split(",").map((p) => p.trim());
    try {
      const link = await connectOwner(
        ownerUrl(c.req.url, owner(), "ws"),
        offered,
        WebSocket as unknown as OwnerSocketConstructor,
        2_000,
      );
      links.push(link);
      return sockets.runtime.upgrade(c, link.events(ended), undefined);
    } catch {
      return c.text("owner unreachable", 502);
    }
  });
  const port = await freePort();
  const server = serve({
    fetch: app.fetch,
    port,
    hostname: "127.0.0.1",
    websocket: { server: sockets.server },
  });
  await once(server, "listening");
  return { url: `ws://127.0.0.1:${port}`, links, close: () => server.close() };
}

/** An owner that echoes frames, closes with 4001 on "bye", and records how clients closed. */
let ownerServer: WebSocketServer;
let ownerBase = "";
const ownerCloses: number[] = [];
const ownerSockets: WebSocket[] = [];
let forwarder: Awaited<ReturnType<typeof startForwarder>> | undefined;
const ended: [string, number][] = [];

before(async () => {
  if (!onNode) return;
  ownerServer = new WebSocketServer({
    host: "127.0.0.1",
    port: 0,
    handleProtocols: (protocols) => (protocols.has(SUBPROTOCOL) ? SUBPROTOCOL : false),
  });
  await once(ownerServer, "listening");
  ownerBase = `http://127.0.0.1:${(ownerServer.address() as { port: number }).port}`;
  ownerServer.on("connection", (socket, req) => {
    ownerSockets.push(socket);
    socket.send(`hello ${req.url} ${socket.protocol}`);
    socket.on("message", (data) => {
      const text = String(data);
      if (text === "bye") socket.close(4001, "closed by owner");
      else socket.send(`echo ${text}`);
    });
    socket.on("close", (code) => ownerCloses.push(code));
  });
  forwarder = await startForwarder(
    () => ownerBase,
    (by, code) => ended.push([by, code]),
  );
});
after(() => {
  forwarder?.close();
  ownerServer?.close();
});

/** Opens a client socket through the forwarder and collects what it receives. */
async function client(path = "/sessions/main/ws?x=1") {
  const socket = new WebSocket(`${forwarder?.url}${path}`, [SUBPROTOCOL, "token.abc"]);
  const received: string[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on("close", (code, reason) => resolve({ code, reason: String(reason) })),
  );
  socket.on("message", (data) => received.push(String(data)));
  await once(socket, "open");
  return { socket, received, closed };
}

/** Resolves once `received` has `n` entries. */
async function receivedCount(c: Awaited<ReturnType<typeof client>>, n: number): Promise<void> {
  while (c.received.length < n) await once(c.socket, "message");
}

test("relay: frames go both ways in order, the owner's close reaches the client", {
  skip: !onNode,
}, async () => {
  const c = await client();
  assert.equal(c.socket.protocol, SUBPROTOCOL);
  for (let i = 0; i < 100; i++) c.socket.send(`m${i}`);
  await receivedCount(c, 101);
  assert.equal(c.received[0], `hello /sessions/main/ws?x=1 ${SUBPROTOCOL}`);
  assert.deepEqual(
    c.received.slice(1),
    Array.from({ length: 100 }, (_, i) => `echo m${i}`),
  );
  c.socket.send("bye");
  assert.deepEqual(await c.closed, { code: 4001, reason: "closed by owner" });
  assert.deepEqual(ended.at(-1), ["owner", 4001]);
});

test("relay: the client's close reaches the owner", { skip: !onNode }, async () => {
  const before = ownerCloses.length;
  const c = await client();
  await receivedCount(c, 1);
  const ownerClosed = new Promise<void>((resolve) =>
    ownerSockets.at(-1)?.once("close", () => resolve()),
  );
  c.socket.close(1000);
  await ownerClosed;
  assert.equal(ownerCloses[before], 1000);
  assert.deepEqual(ended.at(-1), ["client", 1000]);
});

test("relay: an owner that dies without a close frame closes the client with 1001 (reconnect)", {
  skip: !onNode,
}, async () => {
  const c = await client();
  await receivedCount(c, 1);
  ownerSockets.at(-1)?.terminate();
  assert.equal((await c.closed).code, 1001);
  assert.deepEqual(ended.at(-1), ["owner", 1006]);
});

test("connectOwner: an unreachable owner is refused before the upgrade", {
  skip: !onNode,
}, async () => {
  const saved = ownerBase;
  ownerBase = `http://127.0.0.1:${await freePort()}`;
  try {
    const socket = new WebSocket(`${forwarder?.url}/sessions/main/ws`, [SUBPROTOCOL]);
    const [error] = (await once(socket, "error")) as [Error];
    assert.match(error.message, /502/);
  } finally {
    ownerBase = saved;
  }
});

test("relay: an owner's side whose client never opened (it left during the upgrade) is closed, so it holds nothing on the owner", {
  skip: !onNode,
}, async () => {
  const before = ownerSockets.length;
  const link = await connectOwner(
    `${ownerBase.replace(/^http/, "ws")}/sessions/main/ws`,
    [SUBPROTOCOL],
    WebSocket as unknown as OwnerSocketConstructor,
  );
  await new Promise<void>((resolve) => {
    const wait = () => (ownerSockets.length > before ? resolve() : setTimeout(wait, 10));
    wait();
  });
  const ownerClosed = new Promise<number>((resolve) =>
    ownerSockets.at(-1)?.once("close", (code) => resolve(code)),
  );
  // The upgrade's events, never opened: the client's socket was gone by the time of the upgrade.
  link.events(undefined, 100);
  assert.equal(await ownerClosed, 1000);
});

test("relay: closing a link (its node's life ended) closes both sides, the client with 1001 (reconnect)", {
  skip: !onNode,
}, async () => {
  const c = await client();
  await receivedCount(c, 1);
  const ownerClosed = new Promise<number>((resolve) =>
    ownerSockets.at(-1)?.once("close", (code) => resolve(code)),
  );
  assert.ok(forwarder?.links.at(-1), "the forwarder keeps its links");
  forwarder?.links.at(-1)?.close();
  assert.equal(await ownerClosed, 1000);
  assert.equal((await c.closed).code, 1001);
});
