/**
 * Live: PiClient over the WebSocket transport through the real bridge (`@pi-kit/bridge`), real pi
 * 1.x and 0.73.1 and the scripted model. A TCP proxy between client and bridge cuts the
 * connection mid-answer, as a network loss does; the bridge's run snapshot brings the answer so
 * far back with the new connection.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { ServedBridge } from "@pi-kit/bridge";
import type { AgentMessage } from "@pi-kit/protocol";
import {
  type ModelServer,
  type PiCommand,
  piCommand,
  sessionHostOptions,
  startModelServer,
} from "@pi-kit/testing";
import {
  type ClientEvent,
  type DialogHandler,
  PiClient,
  PiClientError,
  type WebSocketTransport,
} from "../../src/index.ts";
import { createNodeWebSocketTransport } from "../../src/ws-node.ts";
import { textOf, whenSession } from "./live-pi.ts";
import { startTcpProxy, type TcpProxy } from "./tcp-proxy.ts";

type Version = "1" | "0.73";

const runtime =
  (globalThis as { Bun?: unknown }).Bun !== undefined
    ? "bun"
    : (globalThis as { Deno?: unknown }).Deno !== undefined
      ? "deno"
      : "node";

let model: ModelServer;
before(async () => {
  model = await startModelServer();
});
after(async () => {
  await model.close();
});

interface Setup {
  readonly served: ServedBridge;
  readonly proxy: TcpProxy;
  readonly pi: PiCommand;
  url(name: string): string;
  dispose(): Promise<void>;
}

async function startBridge(version: Version): Promise<Setup> {
  const pi = piCommand({ version, baseUrl: model.baseUrl, uiProbe: true });
  const adapter =
    runtime === "bun"
      ? await import("@pi-kit/bridge/bun")
      : runtime === "deno"
        ? await import("@pi-kit/bridge/deno")
        : await import("@pi-kit/bridge/node");
  const served = await adapter.serveBridge({
    ...sessionHostOptions(pi),
    port: 0,
    logger: () => {},
    stopTimeouts: { stdinCloseMs: 2000, sigtermMs: 1000 },
  });
  const proxy = await startTcpProxy(served.url.replace(/^http:\/\//, ""));
  return {
    served,
    proxy,
    pi,
    url: (name) => `ws://${proxy.address}/sessions/${name}/ws`,
    async dispose() {
      await proxy.close();
      await served.close();
      pi.dispose();
    },
  };
}

async function open(
  setup: Setup,
  name: string,
  dialogHandler?: DialogHandler,
): Promise<{ client: PiClient; transport: WebSocketTransport }> {
  const transport = await createNodeWebSocketTransport({
    url: setup.url(name),
    token: setup.served.token,
    reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
  });
  const client = await PiClient.connect(transport, {
    handshakeTimeoutMs: 30_000,
    ...(dialogHandler ? { dialogHandler } : {}),
  });
  return { client, transport };
}

function nextEvent(
  client: PiClient,
  match: (event: ClientEvent) => boolean,
  ms = 20_000,
): Promise<ClientEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error("timed out waiting for an event"));
    }, ms);
    const off = client.onEvent((event) => {
      if (!match(event)) return;
      clearTimeout(timer);
      off();
      resolve(event);
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const version of ["1", "0.73"] as const) {
  describe(`pi ${version} through the bridge`, () => {
    let setup: Setup;
    before(async () => {
      setup = await startBridge(version);
    });
    after(async () => {
      await setup.dispose();
    });

    test("a drop mid-answer (before its tool call): after the reconnect the transcript equals getMessages()", async () => {
      const { client } = await open(setup, "stream");
      try {
        const firstDelta = nextEvent(client, (e) => e.type === "message_update");
        await client.prompt("[[slow 30ms x 30]] [[bash echo hi]]");
        await firstDelta;
        await sleep(150);
        setup.proxy.sever();
        await sleep(200); // events of this gap are lost
        const resynced = nextEvent(client, (e) => e.type === "session_resynced");
        setup.proxy.resume();
        await resynced;
        await client.waitForSettled({ timeoutMs: 30_000 });
        const transcript = client.session.getSnapshot().messages;
        assert.deepEqual(transcript, await client.getMessages());
        const roles = transcript.map((m) => m.role);
        assert.deepEqual(roles.slice(-4), ["user", "assistant", "toolResult", "assistant"]);
        assert.equal(
          client.session.getSnapshot().toolExecutions.get(firstToolCallId(transcript))?.status,
          "done",
        );
      } finally {
        await client.close();
      }
    });

    test("a drop mid-answer: after the reconnect the answer so far is back and streams on, every word once", async () => {
      const { client } = await open(setup, "resume-stream");
      const streamed = () => textOf(client.session.getSnapshot().streamingMessage);
      try {
        // 200 ticks of 150 ms: far longer than the test waits; it is aborted below.
        await client.prompt("[[slow 150ms x 200]]");
        await whenSession(client, () => streamed().includes("tick 3 "));
        setup.proxy.sever();
        await sleep(600); // the ticks of this gap are lost with the connection
        const resynced = nextEvent(client, (e) => e.type === "session_resynced");
        setup.proxy.resume();
        await resynced;
        const back = streamed();
        // Then it streams on from there, with nothing missing and nothing twice.
        await whenSession(client, () => streamed().length > back.length);
        const ticks = streamed().match(/tick \d+ /g) ?? [];
        assert.deepEqual(
          ticks,
          ticks.map((_, i) => `tick ${i + 1} `),
          streamed(),
        );
        assert.equal(ticks.join(""), streamed());

        await client.abort();
        await client.waitForSettled({ timeoutMs: 30_000 });
        assert.deepEqual(client.session.getSnapshot().messages, await client.getMessages());
      } finally {
        await client.close();
      }
    });

    test("a gap that swallows the tool call and the rest of the run: settled from get_state, transcript equal", async () => {
      const { client } = await open(setup, "gap");
      try {
        const firstDelta = nextEvent(client, (e) => e.type === "message_update");
        await client.prompt("[[slow 20ms x 10]] [[bash echo gap]]");
        await firstDelta;
        setup.proxy.sever();
        await sleep(2000); // the tool call, its result and the final answer all happen now
        setup.proxy.resume();
        await client.waitForSettled({ timeoutMs: 30_000 });
        await nextEvent(client, (e) => e.type === "session_resynced").catch(() => undefined);
        assert.equal(client.isRunning, false);
        assert.deepEqual(client.session.getSnapshot().messages, await client.getMessages());
      } finally {
        await client.close();
      }
    });

    test("a pending dialog is still shown (once) after the reconnect, answers reach pi; a new client is shown it too", async () => {
      const shown: string[] = [];
      const handler: DialogHandler = (request) => {
        shown.push(request.id);
        return new Promise(() => {}); // answered through client.ui
      };
      const { client } = await open(setup, "dialog", handler);
      try {
        const opened = nextEvent(
          client,
          (e) => e.type === "extension_ui_request" && e.method === "confirm",
        );
        const prompt = client.prompt("/ui confirm"); // answered only once the dialog is
        await opened;
        setup.proxy.sever();
        await sleep(100);
        const resynced = nextEvent(client, (e) => e.type === "session_resynced");
        setup.proxy.resume();
        // Its answer would come on the dropped connection: it fails once the new one is up.
        await assert.rejects(
          prompt,
          (e: unknown) => e instanceof PiClientError && e.code === "connection_lost",
        );
        await resynced;
        const dialogs = client.session.getSnapshot().dialogs;
        assert.equal(dialogs.length, 1);
        assert.equal(shown.length, 1);
        const id = dialogs[0]?.request.id as string;

        // A second client (a reloaded page) is shown the same dialog while the first controls;
        // once the old page is gone it takes control and answers.
        const other = await open(setup, "dialog", handler);
        assert.deepEqual(shown, [id, id]);
        assert.equal(other.transport.control?.inControl, false);
        await client.close();
        await other.transport.takeControl();
        const result = nextEvent(
          other.client,
          (e) =>
            e.type === "extension_ui_request" &&
            e.method === "notify" &&
            /result: confirm=true/.test(e.message),
        );
        assert.equal(other.client.ui.answer(id, true), true);
        await result;
        await other.client.close();
      } finally {
        await client.close();
      }
    });

    test("pi killed under the bridge: the client closes with reason exit and the exit code", async () => {
      const { client, transport } = await open(setup, "doomed");
      const pid = setup.served.bridge.sessions.get("doomed")?.info().pid;
      assert.equal(typeof pid, "number");
      process.kill(pid as number, "SIGTERM");
      const info = await client.closed;
      assert.equal(info.reason, "exit");
      assert.ok(info.exitCode === 143 || info.signal === "SIGTERM", JSON.stringify(info));
      assert.equal(transport.state.status, "closed");
      await assert.rejects(
        client.getState(),
        (e: unknown) => e instanceof PiClientError && e.code === "transport_closed",
      );
    });
  });
}

function firstToolCallId(messages: readonly AgentMessage[]): string {
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const block of message.content) if (block.type === "toolCall") return block.id;
  }
  return "";
}
