/**
 * Live: several viewers of one session through the real bridge, real pi 1.x and 0.73.1 and the
 * scripted model. One client controls, the other watches: it follows the run, its commands
 * reject as `not_in_control`, and it drives pi once it takes control; a dialog the controller
 * answers closes for the watcher at once; a viewer that attaches mid-answer shows the answer so
 * far at once (the bridge's run snapshot) and ends with pi's own transcript.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { ServedBridge } from "@pi-kit/bridge";
import { type ModelServer, piCommand, sessionHostOptions, startModelServer } from "@pi-kit/testing";
import {
  type ClientEvent,
  type ControlChangeEvent,
  type ControlState,
  type DialogHandler,
  PiClient,
  PiClientError,
  type WebSocketTransport,
} from "../../src/index.ts";
import { createNodeWebSocketTransport } from "../../src/ws-node.ts";
import { textOf, whenSession } from "./live-pi.ts";

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

async function serve(
  version: "1" | "0.73",
): Promise<{ served: ServedBridge; dispose(): Promise<void> }> {
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
  return {
    served,
    async dispose() {
      await served.close();
      pi.dispose();
    },
  };
}

async function viewer(
  served: ServedBridge,
  label: string,
  dialogHandler?: DialogHandler,
): Promise<{ client: PiClient; transport: WebSocketTransport }> {
  const transport = await createNodeWebSocketTransport({
    url: `${served.url.replace(/^http/, "ws")}/sessions/shared/ws`,
    token: served.token,
    label,
    reconnect: false,
  });
  const client = await PiClient.connect(transport, {
    handshakeTimeoutMs: 30_000,
    ...(dialogHandler === undefined ? {} : { dialogHandler }),
  });
  return { client, transport };
}

/** Resolves with the transport's control state once `match` holds (at once if it does now). */
function controlWhere(
  transport: WebSocketTransport,
  match: (control: ControlState) => boolean,
): Promise<ControlState> {
  return new Promise((resolve) => {
    if (transport.control !== undefined && match(transport.control)) {
      resolve(transport.control);
      return;
    }
    const listener = (event: Event): void => {
      const control = (event as ControlChangeEvent).control;
      if (control === undefined || !match(control)) return;
      transport.removeEventListener("controlchange", listener);
      resolve(control);
    };
    transport.addEventListener("controlchange", listener);
  });
}

/** Collects a client's events until the first `agent_end`. */
function eventsOfRun(client: PiClient): Promise<string[]> {
  return new Promise((resolve) => {
    const types: string[] = [];
    const off = client.onEvent((event: ClientEvent) => {
      types.push(event.type);
      if (event.type !== "agent_end") return;
      off();
      resolve(types);
    });
  });
}

/** The text of the answer a client shows streaming now ("" when there is none). */
const streamed = (client: PiClient): string =>
  textOf(client.session.getSnapshot().streamingMessage);

for (const version of ["1", "0.73"] as const) {
  describe(`pi ${version}: two viewers of one session`, () => {
    test("the watcher follows the run, is refused, takes control and drives pi", async () => {
      const { served, dispose } = await serve(version);
      const desk = await viewer(served, "Desk");
      const phone = await viewer(served, "Phone");
      try {
        const deskSees = await controlWhere(desk.transport, (c) => c.viewers === 2);
        assert.equal(deskSees.inControl, true);
        assert.deepEqual(deskSees.you.label, "Desk");
        const phoneSees = await controlWhere(phone.transport, (c) => c.viewers === 2);
        assert.equal(phoneSees.inControl, false);
        assert.equal(phoneSees.controller?.label, "Desk");
        assert.equal(phoneSees.you.readOnly, false);

        await assert.rejects(
          phone.client.prompt("[[text from the phone]]"),
          (error: unknown) =>
            error instanceof PiClientError &&
            error.code === "not_in_control" &&
            error.command === "prompt" &&
            /Desk is in control/.test(error.message),
        );

        const deskRun = eventsOfRun(desk.client);
        const phoneRun = eventsOfRun(phone.client);
        await desk.client.promptAndWait("[[text one two three]]");
        const seen = await phoneRun;
        assert.deepEqual(seen, await deskRun);
        assert.ok(seen.includes("message_update"));
        const messages = await phone.client.getMessages();
        assert.match(JSON.stringify(messages), /one two three/);
        assert.doesNotMatch(JSON.stringify(messages), /from the phone/);

        const deskLoses = controlWhere(desk.transport, (c) => !c.inControl);
        const taken = await phone.transport.takeControl();
        assert.equal(taken.inControl, true);
        assert.equal((await deskLoses).controller?.label, "Phone");
        await assert.rejects(
          desk.client.abort(),
          (error: unknown) => error instanceof PiClientError && error.code === "not_in_control",
        );
        const { disposition } = await phone.client.promptAndWait("[[text now the phone]]");
        assert.equal(disposition, "started");
        assert.match(JSON.stringify(await desk.client.getMessages()), /now the phone/);
      } finally {
        await desk.client.close();
        await phone.client.close();
        await dispose();
      }
    });

    test("a viewer that attaches mid-answer shows it at once, follows it live, and ends with pi's transcript", async () => {
      const { served, dispose } = await serve(version);
      const desk = await viewer(served, "Desk");
      let phone: Awaited<ReturnType<typeof viewer>> | undefined;
      try {
        // 300 ticks of 200 ms (a minute): it streams far longer than the test waits; it is aborted below.
        await desk.client.prompt("[[slow 200ms x 300]]");
        await whenSession(desk.client, () => streamed(desk.client).includes("tick 3 "));
        const seenByDesk = streamed(desk.client);
        phone = await viewer(served, "Phone");
        const watcher = phone.client;
        const joined = watcher.session.getSnapshot();
        assert.equal(joined.isRunning, true);
        // At once: the answer so far is there as the connection is made, not after the run.
        const shown = textOf(joined.streamingMessage);
        assert.ok(shown.startsWith(seenByDesk), `${JSON.stringify(shown)} continues the desk's`);
        // Live: the next deltas extend it, in order.
        await whenSession(watcher, () => streamed(watcher).length > shown.length);
        const next = streamed(watcher);
        assert.ok(next.startsWith(shown) && /^(tick \d+ )+$/.test(next), next);

        const settled = phone.client.waitForSettled();
        await desk.client.abort();
        await settled;
        await desk.client.waitForSettled();
        const transcript = phone.client.session.getSnapshot().messages;
        assert.deepEqual(transcript, await phone.client.getMessages());
        assert.deepEqual(transcript, desk.client.session.getSnapshot().messages);
        assert.equal(phone.client.session.getSnapshot().isRunning, false);
      } finally {
        await desk.client.close();
        await phone?.client.close();
        await dispose();
      }
    });

    test("a dialog the controller answers closes for the watcher at once", async () => {
      const { served, dispose } = await serve(version);
      let closedOnPhone!: (reason: unknown) => void;
      const phoneReason = new Promise((resolve) => {
        closedOnPhone = resolve;
      });
      const desk = await viewer(served, "Desk", () => true);
      // The watcher's user never answers: the dialog stays until something closes it.
      const phone = await viewer(served, "Phone", (_request, { signal }) => {
        signal.addEventListener("abort", () => closedOnPhone(signal.reason));
        return new Promise<undefined>(() => {});
      });
      try {
        await controlWhere(phone.transport, (c) => c.viewers === 2);
        await desk.client.prompt("/ui confirm");
        // Closed because the desk answered, not because it timed out or went stale.
        assert.equal(await phoneReason, "answered_elsewhere");
        assert.deepEqual(phone.client.session.getSnapshot().dialogs, []);
      } finally {
        await desk.client.close();
        await phone.client.close();
        await dispose();
      }
    });
  });
}
