import assert from "node:assert/strict";
import process from "node:process";
import { test } from "node:test";
import type { SessionPage, SessionSummary } from "@pi-kit/client";
import { BridgeCloseCode } from "@pi-kit/protocol/bridge";
import { auth, connect, type Rec, startBridge, until } from "../helpers.ts";

test("relay: a prompt with a bash tool call runs end to end, one record per message", async () => {
  const bridge = await startBridge();
  try {
    const client = await connect(bridge, "tools");
    const response = await client.request(
      { type: "prompt", message: "[[bash echo hi-from-pi]]" },
      30_000,
    );
    assert.equal(response.success, true);
    const end = await client.waitFor((r) => r.type === "tool_execution_end", 30_000);
    assert.match(JSON.stringify(end.result), /hi-from-pi/);
    await client.waitFor((r) => r.type === "agent_settled", 30_000);
    const types = client.records.map((r) => r.type);
    assert.ok(types.indexOf("tool_execution_start") < types.indexOf("tool_execution_end"));
    const info = bridge.bridge.sessions.get("tools")?.info();
    assert.equal(info?.state, "running");
    assert.equal(info?.attached, true);
    await client.close();
  } finally {
    await bridge.dispose();
  }
});

test("relay: a reattach within the grace period re-sends the pending dialog; grace expiry stops pi", async () => {
  const bridge = await startBridge({ uiProbe: true, limits: { graceMs: 1500 } });
  try {
    const first = await connect(bridge, "dialogs");
    first.send({ type: "prompt", id: "p", message: "/ui confirm" });
    const request = await first.waitFor(
      (r) => r.type === "extension_ui_request" && r.method === "confirm",
      30_000,
    );
    await first.close();
    await until(() => bridge.bridge.sessions.get("dialogs")?.attached === false);

    const second = await connect(bridge, "dialogs");
    // After the statuses pi set (the permission mode), replayed too.
    const again = await second.waitFor(
      (r) => r.type === "extension_ui_request" && r.method === "confirm",
    );
    assert.equal(again.id, request.id);
    assert.equal(again.title, request.title);
    second.send({ type: "extension_ui_response", id: request.id as string, confirmed: true });
    const notify = await second.waitFor((r) => r.method === "notify", 15_000);
    assert.match(String(notify.message), /confirm=true/);
    assert.equal(bridge.bridge.sessions.get("dialogs")?.info().pendingDialogs, 0);
    await second.close();

    // A third client sees no dialog: answered ones are forgotten.
    const third = await connect(bridge, "dialogs");
    const state = await third.request({ type: "get_state" });
    assert.equal(state.success, true);
    assert.equal(third.records.filter((r) => r.method === "confirm").length, 0);
    await third.close();

    // Nobody reattaches: after the grace period pi is stopped (stdin first) and forgotten.
    const session = bridge.bridge.sessions.get("dialogs");
    assert.ok(session);
    const exit = await session.exited;
    assert.equal(exit.exitCode, 0);
    assert.equal(exit.stoppedByBridge, true);
    await until(() => bridge.bridge.sessions.get("dialogs") === undefined);
    assert.ok(bridge.log.some((e) => e.event === "session_reaped" && e.reason === "grace"));
  } finally {
    await bridge.dispose();
  }
});

test("http: sessions are created, listed, stopped (files kept) and deleted", async () => {
  const bridge = await startBridge();
  try {
    const api = `${bridge.url}/api/sessions`;
    const json = { ...auth(bridge), "content-type": "application/json" };
    const created = await fetch(api, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ name: "one" }),
    });
    assert.equal(created.status, 201);
    const body = (await created.json()) as { session: SessionSummary };
    assert.equal(body.session.name, "one");
    assert.equal(body.session.state, "idle");
    assert.equal(body.session.messageCount, 0);
    const again = await fetch(api, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ name: "one" }),
    });
    assert.equal(again.status, 200, "creating an existing session opens it");
    await again.body?.cancel();
    for (const bad of ['{"name":"../x"}', '{"name":5}', "[1]", "{nope"]) {
      const refused = await fetch(api, { method: "POST", headers: json, body: bad });
      assert.equal(refused.status, 400, bad);
      await refused.body?.cancel();
    }

    // A session enters the list with its first message, or a title.
    const before = (await (await fetch(api, { headers: auth(bridge) })).json()) as SessionPage;
    assert.deepEqual(before.sessions, []);
    const titled = await fetch(`${api}/one`, {
      method: "PATCH",
      headers: json,
      body: JSON.stringify({ title: "One" }),
    });
    assert.equal(titled.status, 200);
    await titled.body?.cancel();
    const list = (await (await fetch(api, { headers: auth(bridge) })).json()) as SessionPage;
    assert.deepEqual(
      list.sessions.map((s) => s.name),
      ["one"],
    );
    assert.equal(list.nextCursor, null);
    const pid = bridge.bridge.sessions.get("one")?.info().pid;
    assert.equal(typeof pid, "number");

    const stopped = await fetch(`${api}/one/stop`, { method: "POST", headers: auth(bridge) });
    assert.equal(stopped.status, 200);
    assert.equal(((await stopped.json()) as { session: SessionSummary }).session.state, "stopped");
    const exit = await bridge.bridge.sessions.get("one")?.exited;
    assert.equal(exit, undefined, "a stopped session is forgotten by the registry");
    const kept = await fetch(`${api}/one`, { headers: auth(bridge) });
    assert.equal(kept.status, 200, "a stopped session stays in the history");
    assert.equal(((await kept.json()) as { session: SessionSummary }).session.state, "stopped");

    const deleted = await fetch(`${api}/one`, { method: "DELETE", headers: auth(bridge) });
    assert.equal(deleted.status, 204);
    const gone = await fetch(`${api}/one`, { headers: auth(bridge) });
    assert.equal(gone.status, 404);
    await gone.body?.cancel();
    const twice = await fetch(`${api}/one`, { method: "DELETE", headers: auth(bridge) });
    assert.equal(twice.status, 404);
    await twice.body?.cancel();
    for (const [method, path] of [
      ["PATCH", "/bad.name"],
      ["POST", "/nobody/stop"],
    ] as const) {
      const response = await fetch(`${api}${path}`, {
        method,
        headers: json,
        body: method === "PATCH" ? '{"title":"x"}' : null,
      });
      assert.equal(response.status, method === "PATCH" ? 400 : 404, `${method} ${path}`);
      await response.body?.cancel();
    }
  } finally {
    await bridge.dispose();
  }
});

test("exit: killing pi closes the socket with 4000 and the exit code; the next socket resumes", async () => {
  const bridge = await startBridge();
  try {
    const client = await connect(bridge, "doomed");
    await client.request({ type: "prompt", message: "[[text still here]]" }, 30_000);
    await client.waitFor((r) => r.type === "agent_settled", 30_000);
    const pid = bridge.bridge.sessions.get("doomed")?.info().pid;
    assert.equal(typeof pid, "number");
    process.kill(pid as number, "SIGKILL");
    const closed = await client.closed;
    assert.equal(closed.code, BridgeCloseCode.PiExited);
    const reason = JSON.parse(closed.reason) as Rec;
    assert.equal(reason.reason, "exit");
    assert.equal(reason.exitCode, null);
    assert.equal(reason.signal, "SIGKILL");
    const exitLog = bridge.log.find((e) => e.event === "pi_exit");
    assert.ok(exitLog && exitLog.event === "pi_exit" && exitLog.signal === "SIGKILL");
    assert.equal(bridge.bridge.sessions.get("doomed")?.info().state, "exited");

    // A reconnect starts pi again on the session's file: the conversation is there.
    const back = await connect(bridge, "doomed");
    const messages = await back.request({ type: "get_messages" }, 20_000);
    assert.match(JSON.stringify(messages.data), /still here/);
    assert.equal(bridge.bridge.sessions.get("doomed")?.info().state, "running");
    assert.ok(bridge.bridge.sessions.get("doomed")?.info().resumedFrom?.endsWith(".jsonl"));
    await back.close();
    const restarted = await fetch(`${bridge.url}/api/sessions`, {
      method: "POST",
      headers: { ...auth(bridge), "content-type": "application/json" },
      body: JSON.stringify({ name: "doomed" }),
    });
    assert.equal(restarted.status, 200, "the session existed");
    await restarted.body?.cancel();
  } finally {
    await bridge.dispose();
  }
});

test("shutdown: close() stops every pi through stdin (exit 0) and closes sockets with 1001", async () => {
  const bridge = await startBridge();
  let disposed = false;
  try {
    const a = await connect(bridge, "a");
    const b = await connect(bridge, "b");
    await Promise.all([
      a.request({ type: "get_state" }, 20_000),
      b.request({ type: "get_state" }, 20_000),
    ]);
    const sessions = [bridge.bridge.sessions.get("a"), bridge.bridge.sessions.get("b")];
    await bridge.dispose();
    disposed = true;
    for (const client of [a, b])
      assert.equal((await client.closed).code, BridgeCloseCode.GoingAway);
    for (const session of sessions) {
      const exit = await session?.exited;
      // A stdin close lets pi exit by itself with 0; SIGTERM would show as 143 or a signal.
      assert.equal(exit?.exitCode, 0);
      assert.equal(exit?.signal, null);
    }
  } finally {
    if (!disposed) await bridge.dispose();
  }
});
