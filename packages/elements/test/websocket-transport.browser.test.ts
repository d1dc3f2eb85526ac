/**
 * The client's WebSocket transport in Chromium, through the real bridge (pi 1.x, scripted model).
 * The bridge comes from a WTR plugin that serves its address at `/__pi-kit-bridge.json` (see the
 * client's test/live/wtr-bridge-plugin.mjs), so it runs only under that config (the client
 * package's test script), never under this package's own runner.
 */
import { expect } from "@open-wc/testing";
import {
  type ClientEvent,
  createWebSocketTransport,
  PiClient,
  WebSocketCloseError,
  type WebSocketTransport,
} from "@pi-kit/client";

interface BridgeInfo {
  readonly wsBase: string;
  readonly token: string;
  readonly killUrl: string;
}

const bridge: BridgeInfo | undefined = await fetch("/__pi-kit-bridge.json")
  .then((r) => (r.ok ? (r.json() as Promise<BridgeInfo>) : undefined))
  .catch(() => undefined);

function nextEvent(client: PiClient, type: ClientEvent["type"], ms = 20_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} within ${ms} ms`)), ms);
    const off = client.onEvent((event) => {
      if (event.type !== type) return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

async function open(name: string): Promise<{ client: PiClient; transport: WebSocketTransport }> {
  const info = bridge as BridgeInfo;
  const transport = createWebSocketTransport({
    url: `${info.wsBase}/sessions/${name}/ws`,
    token: info.token,
    reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
  });
  return { client: await PiClient.connect(transport, { handshakeTimeoutMs: 30_000 }), transport };
}

// A missing bridge is a setup error, not a pass.
const live = (name: string, body: () => Promise<void>): void =>
  it(name, () => {
    if (bridge === undefined) throw new Error("No bridge: run with the client's wtr-bridge config");
    return body();
  });

describe("WebSocket transport (Chromium, real bridge)", () => {
  live("reconnects mid-answer; the resynced transcript equals getMessages()", async () => {
    const { client, transport } = await open("browser-stream");
    try {
      const states: string[] = [];
      transport.addEventListener("statechange", () => states.push(transport.state.status));
      const firstDelta = nextEvent(client, "message_update");
      await client.prompt("[[slow 30ms x 20]] [[bash echo browser]]");
      await firstDelta;
      const resynced = nextEvent(client, "session_resynced");
      transport.reconnect();
      await resynced;
      await client.waitForSettled({ timeoutMs: 30_000 });
      expect(states).to.include("reconnecting");
      expect(transport.state.status).to.equal("open");
      const transcript = client.session.getSnapshot().messages;
      expect(transcript).to.deep.equal(await client.getMessages());
      expect(transcript.map((m) => m.role).slice(-4)).to.deep.equal([
        "user",
        "assistant",
        "toolResult",
        "assistant",
      ]);
    } finally {
      await client.close();
    }
  });

  live("a wrong token closes the transport at once with 4401, without retrying", async () => {
    const info = bridge as BridgeInfo;
    const transport = createWebSocketTransport({
      url: `${info.wsBase}/sessions/browser-denied/ws`,
      token: "wrong-wrong-wrong-wrong",
      reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
    });
    const states: string[] = [];
    transport.addEventListener("statechange", () => states.push(transport.state.status));
    const closed = await transport.closed;
    expect(closed.reason).to.equal("error");
    expect(closed.error).to.be.instanceOf(WebSocketCloseError);
    expect((closed.error as WebSocketCloseError).code).to.equal(4401);
    expect(String(closed.error)).to.contain("Unauthorized");
    expect(states).not.to.include("reconnecting");
  });

  live(
    "pi killed under the bridge closes the client with reason exit and the exit code",
    async () => {
      const { client, transport } = await open("browser-doomed");
      await fetch(`${(bridge as BridgeInfo).killUrl}?session=browser-doomed`, { method: "POST" });
      const info = await client.closed;
      expect(info.reason).to.equal("exit");
      expect(info.exitCode === 143 || info.signal === "SIGTERM").to.equal(true);
      expect(transport.state.status).to.equal("closed");
    },
  );
});
