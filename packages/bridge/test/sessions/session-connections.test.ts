/**
 * The connections of one session beside its pi: what a joining connection is sent and in which
 * order, who learns a dialog was answered, when the grace period starts, and closing them all.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { PendingDialogs } from "../../src/sessions/pending-dialogs.ts";
import { RetainedUi } from "../../src/sessions/retained-ui.ts";
import { RunRecorder } from "../../src/sessions/run-recorder.ts";
import type { SessionConnection } from "../../src/sessions/session-connection.ts";
import { SessionConnections } from "../../src/sessions/session-connections.ts";

type Rec = Record<string, unknown>;

/** A connection that keeps the records it was sent and how it was closed. */
function connection(id: number) {
  const records: Rec[] = [];
  const closed: [number, string][] = [];
  const socket: SessionConnection = {
    id,
    label: `viewer ${id}`,
    readOnly: false,
    send: (line) => records.push(JSON.parse(line) as Rec),
    bufferedAmount: () => 0,
    drained: async () => {},
    close: (code, reason) => closed.push([code, reason]),
  };
  return { socket, records, closed, types: () => records.map((record) => record.type) };
}

const dialog = (id: string): Rec => ({
  type: "extension_ui_request",
  id,
  method: "confirm",
  title: "Sure?",
});

test("session-connections: a joining connection hears who controls, then the notice, the run so far, the dialogs", () => {
  const run = new RunRecorder();
  const dialogs = new PendingDialogs(8);
  const connections = new SessionConnections(run, dialogs, new RetainedUi(), {
    id: "n-1",
    message: "resumed",
  });
  run.observe('{"type":"agent_start"}');
  dialogs.add(dialog("d-1"));
  const first = connection(1);
  connections.attach(first.socket);
  assert.deepEqual(first.types(), [
    "bridge_control",
    "extension_ui_request",
    "bridge_run_snapshot",
    "extension_ui_request",
  ]);
  assert.deepEqual(first.records[1], {
    type: "extension_ui_request",
    id: "n-1",
    method: "notify",
    message: "resumed",
    notifyType: "warning",
  });
  assert.equal(first.records[3]?.id, "d-1");

  // Until pi starts another run, a joining connection hears the notice too (the first one may
  // have been a client that gave up); the one already there hears who joined.
  const second = connection(2);
  connections.attach(second.socket);
  assert.deepEqual(second.types(), [
    "bridge_control",
    "extension_ui_request",
    "bridge_run_snapshot",
    "extension_ui_request",
  ]);
  assert.equal(second.records[1]?.id, "n-1");
  assert.equal(first.records.at(-1)?.viewers, 2);

  // Once pi has started a run after the notice went out, it is old news.
  run.observe('{"type":"agent_start"}');
  const third = connection(3);
  connections.attach(third.socket);
  assert.deepEqual(third.types(), [
    "bridge_control",
    "bridge_run_snapshot",
    "extension_ui_request",
  ]);
});

test("session-connections: with no run and no dialogs, a joining connection only hears who controls", () => {
  const connections = new SessionConnections(
    new RunRecorder(),
    new PendingDialogs(8),
    new RetainedUi(),
  );
  const only = connection(1);
  connections.attach(only.socket);
  assert.deepEqual(only.types(), ["bridge_control"]);
});

test("session-connections: an answered dialog closes for the other connections, once, while pi waits on it", () => {
  const dialogs = new PendingDialogs(8);
  const connections = new SessionConnections(new RunRecorder(), dialogs, new RetainedUi());
  const desk = connection(1);
  const phone = connection(2);
  connections.attach(desk.socket);
  connections.attach(phone.socket);
  dialogs.add(dialog("d-1"));
  const before = { desk: desk.records.length, phone: phone.records.length };

  connections.answered("d-1", desk.socket);
  assert.equal(desk.records.length, before.desk, "the answerer is not told");
  assert.deepEqual(phone.records.slice(before.phone), [
    { type: "bridge_dialog_closed", id: "d-1", by: { id: 1, label: "viewer 1" } },
  ]);
  connections.answered("d-1", desk.socket);
  assert.equal(phone.records.length, before.phone + 1, "an answer to a closed dialog says nothing");
  assert.equal(dialogs.size(), 0);
});

test("session-connections: the grace period starts when the last connection leaves", () => {
  const connections = new SessionConnections(
    new RunRecorder(),
    new PendingDialogs(8),
    new RetainedUi(),
  );
  const created = performance.now();
  const a = connection(1);
  const b = connection(2);
  connections.attach(a.socket);
  connections.attach(b.socket);
  assert.equal(connections.attached, true);
  assert.equal(connections.detachedFor(created + 60_000), 0);
  connections.detach(a.socket);
  assert.equal(connections.attached, true);
  // Bracketed by two readings of the clock, so a pause of the machine cannot fail it.
  const before = performance.now();
  connections.detach(b.socket);
  const after = performance.now();
  assert.equal(connections.attached, false);
  const since = connections.detachedFor(after + 1000);
  assert.ok(since >= 1000 && since <= 1000 + (after - before), `${since}`);
  // A connection that was never attached changes nothing.
  connections.detach(connection(3).socket);
  assert.equal(connections.detachedFor(after + 1000), since);
});

test("session-connections: closing all closes every connection with the code and forgets them", () => {
  const connections = new SessionConnections(
    new RunRecorder(),
    new PendingDialogs(8),
    new RetainedUi(),
  );
  const a = connection(1);
  const b = connection(2);
  connections.attach(a.socket);
  connections.attach(b.socket);
  const closing = performance.now();
  connections.closeAll(4000, "bye");
  assert.deepEqual(a.closed, [[4000, "bye"]]);
  assert.deepEqual(b.closed, [[4000, "bye"]]);
  assert.equal(connections.attached, false);
  assert.equal(connections.control.controller, undefined);
  assert.ok(
    connections.detachedFor(closing + 1000) <= 1000,
    "the grace period starts at the close",
  );
});

test("session-connections: a joining connection gets the statuses, widgets and title pi set, not the cleared ones", () => {
  const ui = new RetainedUi();
  const connections = new SessionConnections(new RunRecorder(), new PendingDialogs(8), ui);
  const set = (record: Rec) => {
    const request = { type: "extension_ui_request", ...record };
    ui.observe(JSON.stringify(request), request);
  };
  set({ id: "s-1", method: "setStatus", statusKey: "pi-kit-permissions", statusText: "ask" });
  set({ id: "s-2", method: "setStatus", statusKey: "pi-kit-permissions", statusText: "full" });
  set({ id: "s-3", method: "setStatus", statusKey: "gone", statusText: "x" });
  set({ id: "s-4", method: "setStatus", statusKey: "gone" });
  set({ id: "w-1", method: "setWidget", widgetKey: "w", widgetLines: ["a"] });
  set({ id: "t-1", method: "setTitle", title: "pi: login bug" });
  set({ id: "n-1", method: "notify", message: "not state" });
  const joining = connection(1);
  connections.attach(joining.socket);
  assert.deepEqual(
    joining.records.slice(1).map((record) => record.id),
    ["s-2", "w-1", "t-1"],
  );
});
