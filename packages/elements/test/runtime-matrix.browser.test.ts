/**
 * Chromium's row of the bridge's runtime matrix: `<pi-chat>` on `@pi-kit/client` over the
 * browser's `WebSocket` against the bridge CLI on Node, Deno and Bun, each behind a proxy that
 * drops a connection in the middle of an answer. Per runtime: a wrong token refused with 4401
 * `wrong_token`, a prompt round trip, and a reconnect mid-answer that ends with the whole answer,
 * in the session and on screen, once. The bridges come
 * from the client's WTR plugin (`matrix` in `/__pi-kit-bridge.json`), so this runs only under the
 * client's wtr-bridge config.
 */
import { expect } from "@open-wc/testing";
import { createWebSocketTransport, PiClient, PiClientError } from "@pi-kit/client";
import "../src/define.ts";
import type { PiChat } from "../src/index.ts";
import { deepText } from "./support/helpers.ts";

interface MatrixBridge {
  readonly runtime: string;
  readonly wsBase: string;
  readonly token: string;
}

const matrix: readonly MatrixBridge[] | undefined = await fetch("/__pi-kit-bridge.json")
  .then((r) => (r.ok ? (r.json() as Promise<{ matrix?: MatrixBridge[] }>) : undefined))
  .then((info) => info?.matrix)
  .catch(() => undefined);

const reconnect = { initialDelayMs: 50, maxDelayMs: 400, maxAttempts: 100 };
const TICKS = Array.from({ length: 12 }, (_, i) => `tick ${i + 1}`).join(" ");

/** How often `needle` is in the chat's rendered transcript, once it is there (45 s at most). */
async function shownTimes(chat: PiChat, needle: string): Promise<number> {
  const deadline = performance.now() + 45_000;
  for (;;) {
    await chat.updateComplete;
    const count = deepText(chat.shadowRoot as ShadowRoot).split(needle).length - 1;
    if (count > 0 || performance.now() > deadline) return count;
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
}

describe("runtime matrix (Chromium, the bridge CLI on Node, Deno and Bun)", () => {
  it("has the three bridges", () => {
    if (matrix === undefined)
      throw new Error("No bridges: run with the client's wtr-bridge config");
    expect(matrix.map((b) => b.runtime)).to.deep.equal(["node", "deno", "bun"]);
  });
  for (const runtime of ["node", "deno", "bun"]) {
    it(`${runtime}: a wrong token is refused, a prompt round-trips, a reconnect mid-answer completes it`, async () => {
      const bridge = matrix?.find((b) => b.runtime === runtime) as MatrixBridge;
      const url = `${bridge.wsBase}/sessions/chromium-${runtime}/ws?label=chromium`;
      const refused = await PiClient.connect(
        createWebSocketTransport({ url, token: "wrong-token-0123456789abcdef", reconnect }),
      ).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).to.be.instanceOf(PiClientError);
      expect((refused as PiClientError).bridgeCode).to.equal("wrong_token");
      expect((refused as PiClientError).closeCode).to.equal(4401);

      const transport = createWebSocketTransport({ url, token: bridge.token, reconnect });
      const states: string[] = [];
      transport.addEventListener("statechange", () => states.push(transport.state.status));
      const client = await PiClient.connect(transport, { resync: true });
      const chat = document.createElement("pi-chat") as PiChat;
      document.body.append(chat);
      chat.client = client;
      try {
        await client.promptAndWait("[[text matrix round trip ok]]", { settleTimeoutMs: 60_000 });
        expect(await client.getLastAssistantText()).to.equal("matrix round trip ok");
        // The proxy drops this connection mid-answer: the transport reattaches on its own.
        await client.promptAndWait("[[slow 100ms x 12]]", { settleTimeoutMs: 60_000 });
        expect(states).to.include("reconnecting");
        expect((await client.getLastAssistantText())?.trim()).to.equal(TICKS);
        const shown = client.session
          .getSnapshot()
          .messages.filter(
            (m) => m.role === "assistant" && JSON.stringify(m.content).includes("tick 1 "),
          );
        expect(shown.length).to.equal(1);
        expect(await shownTimes(chat, "tick 12")).to.equal(1);
      } finally {
        chat.remove();
        await client.close();
      }
    });
  }
});
