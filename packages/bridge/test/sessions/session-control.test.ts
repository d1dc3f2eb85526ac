import assert from "node:assert/strict";
import { test } from "node:test";
import { type ControlledConnection, SessionControl } from "../../src/sessions/session-control.ts";

type Rec = Record<string, unknown>;

/** A connection that keeps what it was sent. */
function viewer(id: number, readOnly = false): ControlledConnection & { records: Rec[] } {
  const records: Rec[] = [];
  return {
    id,
    label: `viewer ${id}`,
    readOnly,
    records,
    send: (line) => records.push(JSON.parse(line) as Rec),
  };
}

const last = (records: Rec[]): Rec | undefined => records.at(-1);

test("control: the first connection controls, later ones watch; everyone hears of every change", () => {
  const control = new SessionControl();
  const desk = viewer(1);
  const phone = viewer(2);
  control.attach(desk);
  assert.deepEqual(last(desk.records), {
    type: "bridge_control",
    you: { id: 1, label: "viewer 1", readOnly: false },
    controller: { id: 1, label: "viewer 1" },
    viewers: 1,
  });
  control.attach(phone);
  // The newcomer hears first, then the others.
  assert.deepEqual(last(phone.records), {
    type: "bridge_control",
    you: { id: 2, label: "viewer 2", readOnly: false },
    controller: { id: 1, label: "viewer 1" },
    viewers: 2,
  });
  assert.equal(last(desk.records)?.viewers, 2);
  assert.equal(control.controls(desk), true);
  assert.equal(control.controls(phone), false);

  assert.equal(control.takeControl(phone), true);
  assert.deepEqual(last(desk.records)?.controller, { id: 2, label: "viewer 2" });
  assert.deepEqual(last(phone.records)?.controller, { id: 2, label: "viewer 2" });
  assert.equal(control.controls(desk), false);
});

test("control: a leaving controller frees control; the next to attach takes it, watchers only by asking", () => {
  const control = new SessionControl();
  const desk = viewer(1);
  const phone = viewer(2);
  control.attach(desk);
  control.attach(phone);
  control.detach(desk);
  assert.equal(last(phone.records)?.controller, null);
  assert.equal(last(phone.records)?.viewers, 1);
  assert.equal(control.controls(phone), false);
  // The controller comes back (a reconnect): nobody took control, so it has it again.
  const back = viewer(3);
  control.attach(back);
  assert.equal(control.controls(back), true);
  assert.deepEqual(last(phone.records)?.controller, { id: 3, label: "viewer 3" });

  // Had a watcher taken control meanwhile, the returning one watches.
  control.detach(back);
  control.takeControl(phone);
  const late = viewer(4);
  control.attach(late);
  assert.equal(control.controls(late), false);
  assert.deepEqual(last(late.records)?.controller, { id: 2, label: "viewer 2" });
  assert.equal(control.detach(back), false, "detaching twice is a no-op");
});

test("control: a read-only connection never controls, not on attach and not by asking", () => {
  const control = new SessionControl();
  const reader = viewer(1, true);
  control.attach(reader);
  assert.equal(control.controller, undefined);
  assert.deepEqual(last(reader.records)?.you, { id: 1, label: "viewer 1", readOnly: true });
  assert.equal(control.takeControl(reader), false);
  assert.deepEqual(last(reader.records), {
    type: "bridge_error",
    command: "bridge_take_control",
    code: "read_only",
    error: "This connection is read-only: it can watch the session, never control it",
  });
  const writer = viewer(2);
  control.attach(writer);
  assert.equal(control.controls(writer), true);
  assert.equal(
    control.takeControl(viewer(9)),
    false,
    "a connection that is not attached cannot take control",
  );
  assert.deepEqual(
    control.clear().map((c) => c.id),
    [1, 2],
  );
  assert.equal(control.connections.size, 0);
});

test("control: a controller that leaves after a connection of its label attached (a reload) hands control to it", () => {
  const control = new SessionControl();
  const label = "Chrome on Linux";
  const early = { ...viewer(1), label };
  const page = { ...viewer(2), label };
  const other = viewer(3);
  const reloaded = { ...viewer(4), label };
  const readOnly = { ...viewer(5, true), label };
  control.attach(early);
  control.attach(page);
  control.takeControl(page);
  control.attach(other);
  // The reloaded page attaches before the bridge has seen the old one's socket close: it watches.
  control.attach(reloaded);
  control.attach(readOnly);
  assert.equal(control.controls(reloaded), false);
  control.detach(page);
  assert.equal(control.controls(reloaded), true);
  assert.deepEqual(last(other.records)?.controller, { id: 4, label });

  // Another label, a read-only connection, or one that attached before it never inherits control.
  control.detach(reloaded);
  assert.equal(control.controller, undefined);
  assert.deepEqual(last(early.records)?.controller, null);
});

test("control: a connection of the controller's own viewer takes control on attaching from a socket that never sent a record; never from one that did, nor for others", () => {
  const control = new SessionControl();
  // A socket nobody stands behind: its client gave up on the upgrade, so it never sends.
  const ghost = { ...viewer(1), viewer: "me", heard: false };
  const other = { ...viewer(2), viewer: "someone else", heard: false };
  const keyless = { ...viewer(3), heard: false };
  const reader = { ...viewer(4, true), viewer: "me", heard: false };
  control.attach(ghost);
  for (const connection of [other, keyless, reader]) control.attach(connection);
  assert.equal(control.controls(ghost), true, "other viewers, keyless and read-only ones watch");

  // The client back on a new socket: it takes control from the silent one.
  const back = { ...viewer(5), viewer: "me", heard: true };
  control.attach(back);
  assert.equal(control.controls(back), true);
  assert.deepEqual(last(ghost.records)?.controller, { id: 5, label: "viewer 5" });
  assert.deepEqual(last(other.records)?.controller, { id: 5, label: "viewer 5" });
  assert.match(
    String(JSON.parse(control.refusal(ghost, { type: "prompt" }) ?? "{}").error),
    /viewer 5 is in control/,
  );

  // A late ghost of the same viewer never takes control from a client that has spoken.
  const lateGhost = { ...viewer(6), viewer: "me", heard: false };
  control.attach(lateGhost);
  assert.equal(control.controls(back), true);
  control.detach(ghost);
  control.detach(lateGhost);
  assert.equal(control.controls(back), true);

  // A controller that leaves hands control to a later socket of its viewer, whatever its label.
  const again = { ...viewer(7), viewer: "me", heard: true };
  control.attach(again);
  assert.equal(control.controls(back), true, "a client that has spoken keeps control");
  control.detach(back);
  assert.equal(control.controls(again), true);
});

/** Resolves once `check` holds, looked at on each turn of the event loop. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

test("control: a session that starts again waits for its former controller: others watch, it takes control on attaching", () => {
  const changes: (string | undefined)[] = [];
  const control = new SessionControl({
    reclaim: { identity: "former", ms: 60_000 },
    onChange: (identity) => changes.push(identity),
  });
  const first = { ...viewer(1), viewer: "someone else" };
  const forged = { ...viewer(2), viewer: "forged" };
  const keyless = viewer(3);
  const reader = { ...viewer(4, true), viewer: "former" };
  for (const connection of [first, forged, keyless, reader]) control.attach(connection);
  assert.equal(control.controller, undefined, "nobody controls while it waits");
  assert.equal(control.waiting, true);
  assert.deepEqual(last(first.records)?.controller, null);
  // Explained to a watcher that tries to send.
  assert.match(
    String(JSON.parse(control.refusal(first, { type: "prompt" }) ?? "{}").error),
    /nobody is in control/,
  );

  const former = { ...viewer(5), viewer: "former" };
  control.attach(former);
  assert.equal(control.controls(former), true);
  assert.equal(control.waiting, false);
  assert.deepEqual(last(first.records)?.controller, { id: 5, label: "viewer 5" });
  assert.deepEqual(changes, ["former"]);

  // Who controls now is kept: a watcher that takes control, then nobody once it leaves.
  control.takeControl(first);
  control.detach(first);
  assert.deepEqual(changes, ["former", "someone else", undefined]);
  // The session ending is no change of controller: the last one is kept for its next start.
  control.takeControl(former);
  control.clear();
  assert.deepEqual(changes, ["former", "someone else", undefined, "former"]);
});

test("control: when the former controller does not come back in time, the oldest connection that may control takes it", async () => {
  const control = new SessionControl({ reclaim: { identity: "former", ms: 20 } });
  const reader = viewer(1, true);
  const first = viewer(2);
  const second = viewer(3);
  for (const connection of [reader, first, second]) control.attach(connection);
  assert.equal(control.controller, undefined);
  await until(() => control.controller !== undefined);
  assert.equal(control.controls(first), true);
  assert.deepEqual(last(second.records)?.controller, { id: 2, label: "viewer 2" });
  // The former controller back late: it watches, as any newcomer.
  const late = { ...viewer(4), viewer: "former" };
  control.attach(late);
  assert.equal(control.controls(late), false);
});

test("control: a viewer that takes control while the session waits ends the wait", () => {
  const control = new SessionControl({ reclaim: { identity: "former", ms: 60_000 } });
  const phone = viewer(1);
  control.attach(phone);
  assert.equal(control.takeControl(phone), true);
  assert.equal(control.waiting, false);
  const former = { ...viewer(2), viewer: "former" };
  control.attach(former);
  assert.equal(control.controls(phone), true, "the one who asked keeps it");
  assert.equal(control.controls(former), false);
  control.clear();
});

test("control: a session that waits with nobody attached when the wait ends gives control to the next to attach", async () => {
  const control = new SessionControl({ reclaim: { identity: "former", ms: 10 } });
  await until(() => !control.waiting);
  const next = viewer(1);
  control.attach(next);
  assert.equal(control.controls(next), true);
});
