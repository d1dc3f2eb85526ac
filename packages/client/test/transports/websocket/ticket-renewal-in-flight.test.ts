/**
 * A ticket renewal swaps sockets, and the bridge answers a request only on the socket that sent
 * it: so the renewal waits until the socket's requests are answered, and a call in flight at the
 * renewal's time succeeds instead of failing as one that "may or may not have run".
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createWebSocketTransport, PiClient } from "../../../src/index.ts";
import { renewalDelay } from "../../../src/transports/websocket/ticket-renewal.ts";
import { FakeBridge, socketClass } from "../../support/ws-fake-bridge.ts";

const part = (value: unknown): string =>
  btoa(JSON.stringify(value)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
/** An unsigned ticket that expires at `at` (ms): only its `exp` matters to the client. */
const ticket = (at: number): string => `${part({ alg: "HS256" })}.${part({ exp: at / 1000 })}.sig`;

test("ticket renewal: a call in flight at the renewal's time is answered, then the socket is renewed", async () => {
  const bridge = await FakeBridge.start("1");
  bridge.acceptToken = (token) => token.split(".").length === 3;
  let expiresAt = 0;
  const transport = createWebSocketTransport({
    url: bridge.url,
    token: () => {
      expiresAt = Date.now() + 4000;
      return ticket(expiresAt);
    },
    WebSocket: await socketClass(),
  });
  // A timer set as the first socket opens, just after the renewal's: it fires once the renewal
  // is due (the old code swapped sockets then), and well before the latest the renewal may wait.
  const renewalDue = new Promise<void>((resolve) => {
    const onOpen = (): void => {
      if (transport.state.status !== "open") return;
      transport.removeEventListener("statechange", onOpen);
      setTimeout(resolve, renewalDelay(expiresAt, Date.now()) + 20);
    };
    transport.addEventListener("statechange", onOpen);
  });
  const client = await PiClient.connect(transport);
  try {
    bridge.handlers.set("get_commands", () => []); // answered by hand below
    const asked = bridge.waitFor("get_commands");
    const call = client.getCommands();
    const { id } = await asked;
    await renewalDue;
    assert.equal(transport.generation, 1, "no renewal while the call waits");
    const renewed = new Promise<void>((resolve) =>
      transport.addEventListener("statechange", () => {
        if (transport.state.status === "open" && transport.state.generation === 2) resolve();
      }),
    );
    bridge.send({
      type: "response",
      id,
      command: "get_commands",
      success: true,
      data: { commands: [] },
    });
    assert.deepEqual(await call, []);
    await renewed;
  } finally {
    await client.close();
    await bridge.close();
  }
});
