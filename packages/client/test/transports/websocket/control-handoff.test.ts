import assert from "node:assert/strict";
import { test } from "node:test";
import type { BridgeControlRecord } from "@pi-kit/protocol/bridge";
import { ControlHandoff } from "../../../src/transports/websocket/control-handoff.ts";
import type { ControlState } from "../../../src/transports/websocket/control-state.ts";
import { TakeControlError } from "../../../src/transports/websocket/control-state.ts";

const TAKE = '{"type":"bridge_take_control"}';

/** A socket that keeps what it was sent. */
function socket(): { sent: string[]; send(text: string): void } {
  const sent: string[] = [];
  return { sent, send: (text) => sent.push(text) };
}

function control(you: number, controller: number | null, viewers = 2): BridgeControlRecord {
  return {
    type: "bridge_control",
    you: { id: you, label: `c${you}`, readOnly: false },
    controller: controller === null ? null : { id: controller, label: `c${controller}` },
    viewers,
  };
}

test("control hand-off: a take-control call settles with control, or fails on a refusal or a drop", async () => {
  const changes: Array<ControlState | undefined> = [];
  const handoff = new ControlHandoff((c) => changes.push(c));
  const open = socket();
  handoff.received(control(1, 2), open);
  assert.equal(handoff.current?.inControl, false);
  const taken = handoff.take(open);
  assert.deepEqual(open.sent, [TAKE]);
  // Someone else's control settles nothing; this connection's does.
  handoff.received(control(1, 3), open);
  handoff.received(control(1, 1), open);
  assert.equal((await taken).inControl, true);
  assert.deepEqual(
    changes.map((c) => c?.controller?.id),
    [2, 3, 1],
  );

  const refused = handoff.take(open);
  handoff.refused({
    type: "bridge_error",
    command: "extension_ui_response",
    code: "read_only",
    error: "no",
  });
  handoff.refused({
    type: "bridge_error",
    command: "bridge_take_control",
    code: "read_only",
    error: "never",
  });
  await assert.rejects(refused, (e) => e instanceof TakeControlError && e.code === "read_only");

  const dropped = handoff.take(open);
  handoff.lost();
  await assert.rejects(dropped, (e) => e instanceof TakeControlError && e.code === "closed");
  assert.equal(handoff.current, undefined);
  assert.equal(changes.at(-1), undefined);
  // A second drop has nothing to announce.
  handoff.lost();
  assert.equal(changes.length, 4);
});

test("control hand-off: after a renewal of the socket in control, the new socket takes it back once it is free", () => {
  const handoff = new ControlHandoff(() => {});
  const old = socket();
  const replacement = socket();
  handoff.received(control(1, 1), old);
  handoff.renewing(() => {
    handoff.lost();
    return replacement;
  });
  // The bridge saw the new socket before the old one left: nothing to ask yet.
  handoff.received(control(5, 1), replacement);
  assert.deepEqual(replacement.sent, []);
  // The old one left: ask once, however often the bridge repeats itself.
  handoff.received(control(5, null), replacement);
  handoff.received(control(5, null), replacement);
  assert.deepEqual(replacement.sent, [TAKE]);
  handoff.received(control(5, 5), replacement);
  assert.equal(handoff.current?.inControl, true);
});

test("control hand-off: a renewal ends its claim when someone else takes control or it was not in control", () => {
  const handoff = new ControlHandoff(() => {});
  const replacement = socket();
  handoff.received(control(1, 1), socket());
  handoff.renewing(() => replacement);
  handoff.received(control(5, 7), replacement);
  handoff.received(control(5, null), replacement);
  assert.deepEqual(replacement.sent, [], "another viewer took control first");

  const watcher = new ControlHandoff(() => {});
  const next = socket();
  watcher.received(control(1, 2), socket());
  watcher.renewing(() => next);
  watcher.received(control(5, null), next);
  assert.deepEqual(next.sent, [], "a watcher's renewal claims nothing");
});
