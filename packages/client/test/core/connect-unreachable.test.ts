import assert from "node:assert/strict";
import { createServer } from "node:net";
import { test } from "node:test";
import { PiClient, PiClientError } from "../../src/index.ts";
import { createNodeWebSocketTransport } from "../../src/ws-node.ts";

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
