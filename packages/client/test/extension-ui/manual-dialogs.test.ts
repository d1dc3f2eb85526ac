/**
 * Issue 11, defects 5 and 8: the explicit manual dialog mode, and dialogs an extension gave up on
 * (pi says nothing) closing when their own timeout passes, when the call or run they opened in is
 * over, or when the session changes.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PiClient } from "../../src/index.ts";
import { FakePi, flush, ok, type Written } from "../support/fake-pi.ts";

function confirm(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: "extension_ui_request",
    id,
    method: "confirm",
    title: "Sure?",
    message: "?",
    ...extra,
  };
}

function answers(pi: FakePi): Written[] {
  return pi.written.filter((c) => c.type === "extension_ui_response");
}

const open = (client: PiClient): string[] =>
  client.session.getSnapshot().dialogs.map((d) => d.request.id);

describe("manual dialogs", () => {
  test("a dialog waits for ui.answer, ui.cancel or its own timeout; nothing is sent before", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport, { dialogHandler: "manual" });
    pi.push(confirm("a"));
    pi.push(confirm("b"));
    pi.push(confirm("c", { timeout: 300 }));
    await flush();
    assert.deepEqual(open(client), ["a", "b", "c"]);
    assert.deepEqual(answers(pi), []);
    assert.equal(client.ui.answer("a", true), true);
    assert.equal(client.ui.cancel("b"), true);
    assert.deepEqual(open(client), ["c"]);
    await new Promise<void>((resolve) => {
      const off = client.session.subscribe(() => {
        if (open(client).length > 0) return;
        off();
        resolve();
      });
    });
    await flush();
    assert.deepEqual(answers(pi), [
      { type: "extension_ui_response", id: "a", confirmed: true },
      { type: "extension_ui_response", id: "b", cancelled: true },
      { type: "extension_ui_response", id: "c", cancelled: true },
    ]);
    assert.equal(client.ui.answer("a", true), false, "an answered dialog is gone");
    await client.close();
  });

  test("setDialogHandler switches between manual, a handler and none", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    const off = client.ui.setDialogHandler("manual");
    pi.push(confirm("kept"));
    await flush();
    assert.deepEqual(open(client), ["kept"]);
    off();
    pi.push(confirm("dropped"));
    await flush();
    assert.deepEqual(answers(pi), [
      { type: "extension_ui_response", id: "dropped", cancelled: true },
    ]);
    client.ui.setDialogHandler(() => false);
    pi.push(confirm("handled"));
    await flush();
    assert.deepEqual(answers(pi).at(-1), {
      type: "extension_ui_response",
      id: "handled",
      confirmed: false,
    });
    await client.close();
  });
});

describe("dialogs an extension gave up on", () => {
  test("one opened by an extension command closes when pi answers the command", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport, { dialogHandler: "manual" });
    // The command opens a dialog, the extension cancels it by its own signal, the command ends.
    pi.handlers.set("prompt", () => [confirm("own")]);
    const prompt = client.prompt("/ui abort 300");
    const command = await pi.waitFor("prompt");
    await flush();
    assert.deepEqual(open(client), ["own"]);
    pi.push(ok(command, { disposition: "handled" }));
    assert.equal(await prompt, "handled");
    assert.deepEqual(open(client), []);
    assert.deepEqual(answers(pi), [{ type: "extension_ui_response", id: "own", cancelled: true }]);
    await client.close();
  });

  test("one opened while two commands were pending waits until pi answered both", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport, { dialogHandler: "manual" });
    pi.handlers.set("prompt", () => undefined);
    const first = client.prompt("/one");
    const second = client.prompt("/two");
    await flush();
    const [a, b] = pi.written.filter((c) => c.type === "prompt");
    pi.push(confirm("shared"));
    await flush();
    pi.push(ok(a as Written, { disposition: "handled" }));
    await first;
    assert.deepEqual(open(client), ["shared"], "the other command may still wait for it");
    pi.push(ok(b as Written, { disposition: "handled" }));
    await second;
    assert.deepEqual(open(client), []);
    await client.close();
  });

  test("one opened by a command the caller stopped waiting for closes when pi answers late", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport, { dialogHandler: "manual" });
    pi.handlers.set("prompt", () => [confirm("late")]);
    const controller = new AbortController();
    const prompt = client.prompt("/ui confirm", { signal: controller.signal });
    const command = await pi.waitFor("prompt");
    await flush();
    controller.abort();
    await assert.rejects(prompt);
    assert.deepEqual(open(client), ["late"], "pi still runs the command");
    pi.push(ok(command, { disposition: "handled" }));
    await flush();
    assert.deepEqual(open(client), []);
    await client.close();
  });

  test("one opened outside any call or run closes on the next session change", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport, { dialogHandler: "manual" });
    pi.push(confirm("orphan"));
    await flush();
    await client.getState();
    assert.deepEqual(open(client), ["orphan"], "no call or run ended that it belonged to");
    // A dialog the session command itself opens (a session_before_switch hook) is answered by then.
    await client.newSession();
    assert.deepEqual(open(client), []);
    assert.deepEqual(answers(pi), [
      { type: "extension_ui_response", id: "orphan", cancelled: true },
    ]);
    await client.close();
  });

  test("one opened during a run closes when the run settles", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport, { dialogHandler: "manual" });
    pi.push({ type: "agent_start" });
    pi.push(confirm("tool"));
    await flush();
    assert.equal(client.session.getSnapshot().dialogs[0]?.runBound, true);
    pi.push({ type: "agent_end", messages: [] });
    pi.push({ type: "agent_settled", aborted: false });
    await flush();
    assert.deepEqual(open(client), []);
    await client.close();
  });
});
