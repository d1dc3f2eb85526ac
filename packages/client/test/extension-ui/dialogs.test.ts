import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type DialogContext, PiClient } from "../../src/index.ts";
import { FakePi, flush, sleep, type Written } from "../support/fake-pi.ts";

function dialog(
  id: string,
  method: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const base: Record<string, unknown> = { type: "extension_ui_request", id, method, title: "T" };
  if (method === "select") base.options = ["A", "B"];
  if (method === "confirm") base.message = "sure?";
  return { ...base, ...extra };
}

function responses(pi: FakePi): Written[] {
  return pi.written.filter((c) => c.type === "extension_ui_response");
}

describe("extension dialogs", () => {
  test("answers select, confirm, input and editor through the handler", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport, {
      dialogHandler: (request) => {
        switch (request.method) {
          case "select":
            return request.options[1];
          case "confirm":
            return true;
          case "input":
            return "typed";
          case "editor":
            return "edited\ntext";
        }
      },
    });
    for (const [id, method] of [
      ["1", "select"],
      ["2", "confirm"],
      ["3", "input"],
      ["4", "editor"],
    ] as const) {
      pi.push(dialog(id, method));
    }
    await flush();
    assert.deepEqual(responses(pi), [
      { type: "extension_ui_response", id: "1", value: "B" },
      { type: "extension_ui_response", id: "2", confirmed: true },
      { type: "extension_ui_response", id: "3", value: "typed" },
      { type: "extension_ui_response", id: "4", value: "edited\ntext" },
    ]);
    assert.equal(client.session.getSnapshot().dialogs.length, 0);
    await client.close();
  });

  test("a handler returning undefined or throwing cancels", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport, {
      dialogHandler: (request) => {
        if (request.id === "boom") throw new Error("handler bug");
        return undefined;
      },
    });
    const kinds: string[] = [];
    client.on("diagnostic", (d) => kinds.push(d.kind));
    pi.push(dialog("c", "confirm"));
    pi.push(dialog("boom", "select"));
    await flush();
    assert.deepEqual(responses(pi), [
      { type: "extension_ui_response", id: "c", cancelled: true },
      { type: "extension_ui_response", id: "boom", cancelled: true },
    ]);
    assert.deepEqual(kinds, ["dialog_handler_error"]);
    await client.close();
  });

  test("with no handler every dialog is cancelled at once", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    pi.push(dialog("x", "editor"));
    await flush();
    assert.deepEqual(responses(pi), [{ type: "extension_ui_response", id: "x", cancelled: true }]);
    await client.close();
  });

  test("the client runs the timeout countdown and closes the dialog", async () => {
    const pi = new FakePi("1");
    let context: DialogContext | undefined;
    const client = new PiClient(pi.transport, {
      dialogHandler: (_request, ctx) => {
        context = ctx;
        return new Promise(() => {});
      },
    });
    pi.push(dialog("t", "confirm", { timeout: 40 }));
    await flush();
    assert.equal(client.session.getSnapshot().dialogs.length, 1);
    assert.ok(context?.deadline !== undefined);
    await sleep(70);
    assert.equal(context?.signal.aborted, true);
    assert.equal(context?.signal.reason, "timeout");
    assert.deepEqual(responses(pi), [{ type: "extension_ui_response", id: "t", cancelled: true }]);
    assert.equal(client.session.getSnapshot().dialogs.length, 0);
    await client.close();
  });

  test("two dialogs at once are answered by id, in any order", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport, { dialogHandler: () => new Promise(() => {}) });
    pi.push(dialog("one", "confirm"));
    pi.push(dialog("two", "select"));
    await flush();
    assert.deepEqual(
      client.session.getSnapshot().dialogs.map((d) => d.request.id),
      ["one", "two"],
    );
    assert.equal(client.ui.answer("two", "A"), true);
    assert.equal(client.ui.answer("one", false), true);
    assert.equal(client.ui.answer("one", true), false);
    await flush();
    assert.deepEqual(responses(pi), [
      { type: "extension_ui_response", id: "two", value: "A" },
      { type: "extension_ui_response", id: "one", confirmed: false },
    ]);
    await client.close();
  });

  test("dialogs opened during a run go stale when it settles; abort cancels all", async () => {
    const pi = new FakePi("1");
    const signals = new Map<string, AbortSignal>();
    const client = new PiClient(pi.transport, {
      dialogHandler: (request, ctx) => {
        signals.set(request.id, ctx.signal);
        return new Promise(() => {});
      },
    });
    pi.push(dialog("idle-cmd", "confirm"));
    pi.push({ type: "agent_start" });
    pi.push(dialog("in-run", "confirm"));
    pi.push({ type: "agent_end", messages: [] });
    pi.push({ type: "agent_settled" });
    await flush();
    assert.equal(signals.get("in-run")?.aborted, true);
    assert.equal(signals.get("idle-cmd")?.aborted, false);
    assert.deepEqual(
      client.session.getSnapshot().dialogs.map((d) => d.request.id),
      ["idle-cmd"],
    );
    await client.abort();
    assert.equal(signals.get("idle-cmd")?.aborted, true);
    assert.deepEqual(
      responses(pi).map((r) => r.id),
      ["in-run", "idle-cmd"],
    );
    await client.close();
  });

  test("fire-and-forget methods arrive as events and as retained state; a missing key clears", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    const methods: string[] = [];
    client.on("extension_ui_request", (r) => methods.push(r.method));
    pi.push({
      type: "extension_ui_request",
      id: "1",
      method: "setStatus",
      statusKey: "k1",
      statusText: "working",
    });
    pi.push({
      type: "extension_ui_request",
      id: "2",
      method: "setWidget",
      widgetKey: "w1",
      widgetLines: ["a"],
    });
    pi.push({
      type: "extension_ui_request",
      id: "3",
      method: "setWidget",
      widgetKey: "w2",
      widgetLines: ["b"],
      widgetPlacement: "belowEditor",
    });
    pi.push({ type: "extension_ui_request", id: "4", method: "setTitle", title: "My Title" });
    pi.push({ type: "extension_ui_request", id: "5", method: "set_editor_text", text: "prefill" });
    pi.push({
      type: "extension_ui_request",
      id: "6",
      method: "notify",
      message: "hi",
      notifyType: "warning",
    });
    await flush();
    let ui = client.ui.state;
    assert.equal(ui.statuses.get("k1"), "working");
    assert.deepEqual(ui.widgets.get("w2"), { lines: ["b"], placement: "belowEditor" });
    assert.equal(ui.widgets.get("w1")?.placement, "aboveEditor");
    assert.equal(ui.title, "My Title");
    assert.equal(ui.editorText, "prefill");
    pi.push({ type: "extension_ui_request", id: "7", method: "setStatus", statusKey: "k1" });
    pi.push({ type: "extension_ui_request", id: "8", method: "setWidget", widgetKey: "w1" });
    await flush();
    ui = client.session.getSnapshot().ui;
    assert.equal(ui.statuses.has("k1"), false);
    assert.equal(ui.widgets.has("w1"), false);
    assert.equal(methods.length, 8);
    assert.equal(responses(pi).length, 0);
    await client.close();
  });
});
