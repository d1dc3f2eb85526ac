import assert from "node:assert/strict";
import { createServer as createHttpServer, type Server } from "node:http";
import { type AddressInfo, createServer, type Socket } from "node:net";
import { test } from "node:test";
import { PiClient, PiClientError } from "../../../src/index.ts";
import { createNodeWebSocketTransport } from "../../../src/ws-node.ts";

/** A local port nothing listens on (taken, then let go). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test("connect: a bridge that is down fails connect at once as bridge_unreachable, not after a timeout", async () => {
  const port = await closedPort();
  const transport = await createNodeWebSocketTransport({
    url: `ws://127.0.0.1:${port}/sessions/x/ws`,
    token: "a-token-that-never-gets-sent",
  });
  // A handshake timeout far beyond the test's own: only the typed failure can end it.
  await assert.rejects(
    PiClient.connect(transport, { handshakeTimeoutMs: 3_600_000 }),
    (error: unknown) =>
      error instanceof PiClientError &&
      error.code === "bridge_unreachable" &&
      error.closeCode === 1006 &&
      /unreachable/.test(error.message),
  );
  assert.equal((await transport.closed).reason, "closed");
});

/** A server that answers every WebSocket handshake with `status` and the bridge's code header. */
async function refusingServer(status: string, code: string): Promise<Server> {
  const server = createHttpServer();
  server.on("upgrade", (_request, socket: Socket) =>
    socket.end(`HTTP/1.1 ${status}\r\nPi-Kit-Error-Code: ${code}\r\nContent-Length: 0\r\n\r\n`),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

/** ws (Node 20, through ws-node) shows the bridge's code; Deno and Bun only the status. */
const showsCode = (globalThis as { WebSocket?: unknown }).WebSocket === undefined;

for (const [status, code, final] of [
  ["503 Service Unavailable", "closing", false],
  ["400 Bad Request", "upgrade_failed", true],
] as const) {
  test(`connect: a handshake answered ${status} reports the status${showsCode ? " and code" : ""}, not "unreachable"`, async () => {
    const server = await refusingServer(status, code);
    const { port } = server.address() as AddressInfo;
    const transport = await createNodeWebSocketTransport({
      url: `ws://127.0.0.1:${port}/sessions/x/ws`,
      token: "a-token-the-server-ignores",
    });
    try {
      const error = await PiClient.connect(transport, { handshakeTimeoutMs: 3_600_000 }).then(
        () => assert.fail("connected"),
        (e: unknown) => e,
      );
      assert.ok(error instanceof PiClientError, String(error));
      assert.doesNotMatch(error.message, /unreachable/);
      assert.match(error.message, new RegExp(`HTTP ${status.slice(0, 3)}`));
      if (showsCode) assert.match(error.message, new RegExp(`\\(${code}\\)`));
      // 503 is "for now" (the first attempt's typed failure); a 400 no retry can fix ends the transport.
      if (!final) assert.equal(error.code, "bridge_unreachable");
      const closed = await transport.closed;
      assert.equal(closed.reason, final ? "error" : "closed");
    } finally {
      await transport.close();
      server.close();
    }
  });
}
