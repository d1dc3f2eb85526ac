/**
 * The WebSocket transport's view of the bridge's control records, against the fake bridge: they
 * become `control` and `controlchange`, never records; `takeControl()` and its refusals; a
 * watcher's refused command rejects as `not_in_control` naming the call; a dialog another
 * connection answered closes; `isControlledTransport()` recognises it.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  type BridgeRefusalEvent,
  type ControlChangeEvent,
  type ControlState,
  createStreamTransport,
  createWebSocketTransport,
  isControlledTransport,
  PiClient,
  type PiClientDiagnostic,
  PiClientError,
  TakeControlError,
  type WebSocketConstructor,
  type WebSocketTransport,
} from "../../../src/index.ts";
import { frameReader } from "../../support/frame-reader.ts";
import { FakeBridge, socketClass } from "../../support/ws-fake-bridge.ts";

let Socket: WebSocketConstructor;
before(async () => {
  Socket = await socketClass();
});

const desk = { id: 1, label: "Desk" };
const phone = { id: 2, label: "Phone" };

/** The bridge's control record for the phone. */
function controlRecord(controller: typeof desk | null, readOnly = false) {
  return { type: "bridge_control", you: { ...phone, readOnly }, controller, viewers: 2 };
}

function open(bridge: FakeBridge, label?: string): WebSocketTransport {
  return createWebSocketTransport({
    url: bridge.url,
    token: FakeBridge.token,
    WebSocket: Socket,
    reconnect: { initialDelayMs: 5, maxDelayMs: 20 },
    ...(label === undefined ? {} : { label }),
  });
}

function nextControl(transport: WebSocketTransport): Promise<ControlState | undefined> {
  return new Promise((resolve) =>
    transport.addEventListener(
      "controlchange",
      (event) => resolve((event as ControlChangeEvent).control),
      { once: true },
    ),
  );
}

test("isControlledTransport: the WebSocket transport reports control; a plain stream transport does not", async () => {
  const bridge = await FakeBridge.start();
  const transport = open(bridge);
  assert.equal(isControlledTransport(transport), true);
  assert.equal(
    isControlledTransport(
      createStreamTransport({ readable: new ReadableStream(), writable: new WritableStream() }),
    ),
    false,
  );
  await transport.close();
  await bridge.close();
});

describe("websocket transport: control of a shared session", () => {
  let bridge: FakeBridge;
  before(async () => {
    bridge = await FakeBridge.start();
  });
  after(async () => {
    await bridge.close();
  });

  test("control records set `control` and fire controlchange; they never reach the readable", async () => {
    const transport = open(bridge, "Phone 📱");
    const reader = frameReader(transport.readable);
    assert.equal(transport.control, undefined);
    await bridge.whenAttached();
    assert.equal(
      new URL(`http://x${bridge.upgrades.at(-1)?.url}`).searchParams.get("label"),
      "Phone 📱",
    );

    const changed = nextControl(transport);
    bridge.send(controlRecord(desk));
    bridge.send({ type: "agent_start" });
    assert.deepEqual(await changed, {
      you: { ...phone, readOnly: false },
      controller: desk,
      viewers: 2,
      inControl: false,
    });
    assert.deepEqual(transport.control, await changed);
    // The first record through is pi's, not the bridge's.
    assert.deepEqual(JSON.parse((await reader.read()).value as string), { type: "agent_start" });

    // The desk leaves: nobody controls.
    const freed = nextControl(transport);
    bridge.send({ ...controlRecord(null), viewers: 1 });
    assert.equal((await freed)?.controller, null);

    // takeControl sends the request and resolves once the bridge names this connection.
    const taking = transport.takeControl();
    await bridge.waitFor("bridge_take_control");
    assert.equal(bridge.received.at(-1)?.at(-1), '{"type":"bridge_take_control"}');
    bridge.send(controlRecord(phone));
    const taken = await taking;
    assert.equal(taken.inControl, true);
    // Already in control: nothing to send.
    assert.equal(await transport.takeControl(), taken);

    // A drop forgets the state until the next socket says.
    const lost = nextControl(transport);
    bridge.drop();
    assert.equal(await lost, undefined);
    assert.equal(transport.control, undefined);
    bridge.accepting = true;
    reader.releaseLock();
    await transport.close();
  });

  test("a read-only connection's takeControl rejects with read_only; a refused dialog answer is a bridgeerror event", async () => {
    const transport = open(bridge);
    await bridge.whenAttached();
    bridge.send(controlRecord(desk, true));
    await nextControl(transport);
    const refusals: BridgeRefusalEvent[] = [];
    transport.addEventListener("bridgeerror", (event) =>
      refusals.push(event as BridgeRefusalEvent),
    );

    const taking = transport.takeControl();
    await bridge.waitFor("bridge_take_control");
    const error = "This connection is read-only: it can watch the session, never control it";
    bridge.send({ type: "bridge_error", command: "bridge_take_control", code: "read_only", error });
    await assert.rejects(
      taking,
      (e: unknown) =>
        e instanceof TakeControlError && e.code === "read_only" && e.message === error,
    );
    bridge.send({
      type: "bridge_error",
      command: "extension_ui_response",
      id: "d1",
      code: "read_only",
      error: "refused",
    });
    await new Promise<void>((resolve) =>
      transport.addEventListener("bridgeerror", () => resolve(), { once: true }),
    );
    assert.deepEqual(
      refusals.map((r) => [r.record.command, r.record.code]),
      [
        ["bridge_take_control", "read_only"],
        ["extension_ui_response", "read_only"],
      ],
    );
    // A wait to take control ends when the socket closes.
    const pending = transport.takeControl();
    await bridge.waitFor("bridge_take_control");
    await transport.close();
    await assert.rejects(
      pending,
      (e: unknown) => e instanceof TakeControlError && e.code === "closed",
    );
  });

  test("a watcher's command rejects as not_in_control naming the call; no diagnostic for control records", async () => {
    bridge.handlers.set("prompt", (command) => [
      {
        type: "response",
        id: command.id,
        command: "prompt",
        success: false,
        error: "Denied by bridge policy: this connection is watching (Desk is in control)",
        code: "not_in_control",
      },
    ]);
    const client = await PiClient.connect(open(bridge));
    const diagnostics: PiClientDiagnostic[] = [];
    client.on("diagnostic", (d) => diagnostics.push(d));
    try {
      const changed = nextControl(client.transport as WebSocketTransport);
      bridge.send(controlRecord(desk));
      await changed;
      await assert.rejects(
        client.promptAndWait("hello"),
        (e: unknown) =>
          e instanceof PiClientError &&
          e.code === "not_in_control" &&
          e.command === "promptAndWait" &&
          /^promptAndWait: prompt: Denied by bridge policy: .*Desk is in control/.test(e.message),
      );
      assert.deepEqual(diagnostics, []);
    } finally {
      bridge.handlers.delete("prompt");
      await client.close();
    }
  });

  test("a dialog another connection answered closes here unanswered; one whose request comes later never opens", async () => {
    const aborted: unknown[] = [];
    const client = await PiClient.connect(open(bridge), {
      // A handler that waits for its user until the dialog closes without it.
      dialogHandler: (_request, { signal }) =>
        new Promise((resolve) =>
          signal.addEventListener("abort", () => {
            aborted.push(signal.reason);
            resolve(undefined);
          }),
        ),
    });
    const dialogs = (): string[] => client.session.getSnapshot().dialogs.map((d) => d.request.id);
    const until = (done: () => boolean): Promise<void> =>
      new Promise((resolve) => {
        if (done()) return resolve();
        const off = client.session.subscribe(() => {
          if (!done()) return;
          off();
          resolve();
        });
      });
    const confirm = (id: string) => ({ id, method: "confirm", title: "Run it?", message: "?" });
    try {
      bridge.send(controlRecord(desk));
      bridge.openDialog(confirm("d1"));
      await until(() => dialogs().includes("d1"));
      bridge.send({ type: "bridge_dialog_closed", id: "d1", by: desk });
      await until(() => dialogs().length === 0);
      assert.deepEqual(aborted, ["answered_elsewhere"]);

      // Behind a full socket the request can come after the notice: it never opens.
      bridge.send({ type: "bridge_dialog_closed", id: "d2", by: desk });
      bridge.openDialog(confirm("d2"));
      bridge.openDialog(confirm("d3"));
      await until(() => dialogs().includes("d3"));
      assert.deepEqual(dialogs(), ["d3"]);
      assert.deepEqual(
        bridge.received.flat().filter((line) => line.includes("extension_ui_response")),
        [],
        "nothing is answered for a dialog another connection answered",
      );
    } finally {
      await client.close();
    }
  });
});
