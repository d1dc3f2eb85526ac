import assert from "node:assert/strict";
import { test } from "node:test";
import {
  connect,
  lineVersions,
  piEvents,
  type Rec,
  startBridge,
  type TestClient,
} from "../helpers.ts";

/** The latest control record a client got. */
function control(client: TestClient): Rec {
  const record = client.records.filter((r) => r.type === "bridge_control").at(-1);
  assert.ok(record, "no control record yet");
  return record;
}

for (const version of lineVersions) {
  const settled = version === "1" ? "agent_settled" : "agent_end";

  test(`viewers (pi ${version}): a watcher gets every event of the controller's run; its prompt never reaches pi`, async () => {
    const bridge = await startBridge({ version });
    try {
      const desk = await connect(bridge, "two");
      await desk.waitFor((r) => r.type === "bridge_control");
      const phone = await connect(bridge, "two");
      const seen = await phone.waitFor((r) => r.type === "bridge_control");
      assert.equal((seen.controller as Rec).id, (control(desk).you as Rec).id);
      assert.notEqual((seen.you as Rec).id, (seen.controller as Rec).id);
      assert.equal(seen.viewers, 2);
      await desk.waitFor((r) => r.type === "bridge_control" && r.viewers === 2);

      const refused = await phone.request({ type: "prompt", message: "[[text from the phone]]" });
      assert.equal(refused.success, false);
      assert.equal(refused.code, "not_in_control");
      assert.equal(refused.command, "prompt");
      assert.match(String(refused.error), /watching .*in control.*bridge_take_control/);
      // A watcher may read: queries pass.
      const state = await phone.request({ type: "get_state" });
      assert.equal(state.success, true);

      const started = await desk.request({
        type: "prompt",
        message: "[[text one two three four]]",
      });
      assert.equal(started.success, true);
      await desk.waitFor((r) => r.type === settled, 30_000);
      await phone.waitFor((r) => r.type === settled, 30_000);
      const events = piEvents(desk);
      assert.ok(events.filter((r) => r.type === "message_update").length >= 4);
      assert.deepEqual(piEvents(phone), events);
      // Answers go to whoever asked: the phone never saw the prompt's response.
      assert.equal(
        phone.records.some((r) => r.type === "response" && r.id === started.id),
        false,
      );
      assert.equal(
        desk.records.some((r) => r.type === "response" && r.id === state.id),
        false,
      );

      const messages = (await desk.request({ type: "get_messages" })).data as { messages: Rec[] };
      assert.doesNotMatch(JSON.stringify(messages.messages), /from the phone/);
      assert.ok(
        bridge.log.some((e) => e.event === "command_denied" && e.reason === "not_in_control"),
      );
      assert.equal(bridge.bridge.sessions.get("two")?.info().viewers, 2);
      await desk.close();
      await phone.close();
    } finally {
      await bridge.dispose();
    }
  });
}

test("viewers: both see a pending dialog; only the controller answers it, after taking control", async () => {
  const bridge = await startBridge({ uiProbe: true });
  try {
    const desk = await connect(bridge, "dialog");
    const phone = await connect(bridge, "dialog");
    desk.send({ type: "prompt", id: "p", message: "/ui confirm" });
    const isConfirm = (r: Rec): boolean =>
      r.type === "extension_ui_request" && r.method === "confirm";
    const request = await desk.waitFor(isConfirm, 30_000);
    assert.deepEqual(await phone.waitFor(isConfirm, 30_000), request);

    // A latecomer gets the dialog pi still waits on, too.
    const tablet = await connect(bridge, "dialog");
    assert.equal((await tablet.waitFor(isConfirm)).id, request.id);

    phone.send({ type: "extension_ui_response", id: request.id as string, confirmed: true });
    const refusal = await phone.waitFor((r) => r.type === "bridge_error");
    assert.equal(refusal.code, "not_in_control");
    assert.equal(refusal.command, "extension_ui_response");
    assert.equal(refusal.id, request.id);
    assert.equal(bridge.bridge.sessions.get("dialog")?.info().pendingDialogs, 1);

    const from = desk.records.length;
    phone.send({ type: "bridge_take_control" });
    const phoneId = (control(phone).you as Rec).id;
    for (const client of [desk, phone, tablet]) {
      await client.waitFor(
        (r) => r.type === "bridge_control" && (r.controller as Rec | null)?.id === phoneId,
      );
    }
    assert.equal(
      bridge.bridge.sessions.get("dialog")?.info().controller,
      (control(phone).you as Rec).label,
    );
    assert.ok(bridge.log.some((e) => e.event === "control_taken"));

    phone.send({ type: "extension_ui_response", id: request.id as string, confirmed: true });
    const notify = await desk.waitFor((r) => r.method === "notify", 15_000, from);
    assert.match(String(notify.message), /confirm=true/);
    assert.equal(bridge.bridge.sessions.get("dialog")?.info().pendingDialogs, 0);
    // pi never says a dialog is over: the bridge tells the others who answered it, once.
    const closed = (r: Rec): boolean => r.type === "bridge_dialog_closed";
    for (const client of [desk, tablet]) {
      const record = await client.waitFor(closed);
      assert.deepEqual(record, {
        type: "bridge_dialog_closed",
        id: request.id,
        by: { id: phoneId, label: (control(phone).you as Rec).label },
      });
    }
    const [deskRecords, tabletRecords] = [desk, tablet].map((c) => c.records.filter(closed));
    assert.equal(deskRecords?.length, 1, "the watcher's refused answer closed nothing");
    assert.equal(tabletRecords?.length, 1);
    assert.equal(phone.records.some(closed), false);
    // The former controller watches now.
    const refused = await desk.request({ type: "abort" });
    assert.equal(refused.code, "not_in_control");
    for (const client of [desk, phone, tablet]) await client.close();
  } finally {
    await bridge.dispose();
  }
});

test("viewers: a controller that leaves frees control; coming back it takes control again unless a watcher took it", async () => {
  const bridge = await startBridge();
  try {
    const desk = await connect(bridge, "leave");
    const phone = await connect(bridge, "leave");
    await phone.waitFor((r) => r.type === "bridge_control");
    await desk.close();
    const freed = await phone.waitFor((r) => r.type === "bridge_control" && r.viewers === 1);
    assert.equal(freed.controller, null);
    const refused = await phone.request({ type: "prompt", message: "[[text hi]]" });
    assert.match(String(refused.error), /nobody is in control/);

    // The desk reconnects within the grace period: nobody took control, so it has it again.
    const back = await connect(bridge, "leave");
    const mine = await back.waitFor((r) => r.type === "bridge_control");
    assert.deepEqual((mine.controller as Rec).id, (mine.you as Rec).id);
    await back.close();

    // This time the phone takes control first: the returning desk watches.
    await phone.waitFor(
      (r) => r.type === "bridge_control" && r.controller === null,
      15_000,
      phone.records.length - 1,
    );
    phone.send({ type: "bridge_take_control" });
    await phone.waitFor(
      (r) => r.type === "bridge_control" && (r.controller as Rec | null)?.id === (r.you as Rec).id,
    );
    const labelled = {
      token: bridge.token,
      wsUrl: (name: string) => `${bridge.wsUrl(name)}?label=Desk`,
    };
    const later = await connect(labelled, "leave");
    const watching = await later.waitFor((r) => r.type === "bridge_control");
    assert.deepEqual(watching.you, {
      id: (watching.you as Rec).id,
      label: "Desk",
      readOnly: false,
    });
    assert.deepEqual((watching.controller as Rec).id, (control(phone).you as Rec).id);
    await later.close();
    await phone.close();
  } finally {
    await bridge.dispose();
  }
});
