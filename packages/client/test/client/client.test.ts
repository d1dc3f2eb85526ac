import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ProtocolError } from "@pi-kit/protocol";
import {
  createStreamTransport,
  PiClient,
  type PiClientDiagnostic,
  PiClientError,
} from "../../src/index.ts";
import { FakePi, fail, flush, ok, STATE, sleep } from "../support/fake-pi.ts";

function diagnostics(client: PiClient): PiClientDiagnostic[] {
  const seen: PiClientDiagnostic[] = [];
  client.on("diagnostic", (d) => seen.push(d));
  return seen;
}

describe("PiClient correlation", () => {
  test("connect handshakes with get_state and detects 1.x", async () => {
    const pi = new FakePi("1");
    const client = await PiClient.connect(pi.transport);
    assert.equal(client.capabilities.versionLine, "1");
    assert.equal(client.capabilities.detected, true);
    assert.equal(client.capabilities.commands.size, 33);
    assert.deepEqual(
      pi.written.map((c) => c.type),
      ["get_state", "get_available_thinking_levels"],
    );
    assert.equal(client.session.getSnapshot().state?.sessionId, "s1");
    await client.close();
  });

  test("connect detects 0.73 from the id-less Unknown command and matches it to the probe", async () => {
    const pi = new FakePi("0.73");
    const client = await PiClient.connect(pi.transport);
    const seen = diagnostics(client);
    assert.equal(client.capabilities.versionLine, "0.73");
    assert.equal(client.capabilities.commands.size, 29);
    assert.equal(client.capabilities.supports("get_tree"), false);
    assert.equal(seen.length, 0);
    await client.close();
  });

  test("unsupported commands fail at once on 0.73 without writing anything", async () => {
    const pi = new FakePi("0.73");
    const client = await PiClient.connect(pi.transport);
    const before = pi.written.length;
    for (const call of [
      () => client.clearQueue(),
      () => client.getEntries(),
      () => client.getTree(),
      () => client.getAvailableThinkingLevels(),
    ]) {
      await assert.rejects(
        call(),
        (e: unknown) => e instanceof PiClientError && e.code === "unsupported",
      );
    }
    await flush();
    assert.equal(pi.written.length, before);
    await client.close();
  });

  test("responses are matched by id, not by order", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    const held: Array<() => void> = [];
    pi.handlers.set("get_last_assistant_text", (c) => {
      held.push(() => pi.push(ok(c, { text: String(c.id) })));
      return undefined;
    });
    const a = client.getLastAssistantText();
    const b = client.getLastAssistantText();
    await pi.waitFor("get_last_assistant_text");
    while (held.length < 2) await flush();
    held[1]?.();
    held[0]?.();
    const [ta, tb] = await Promise.all([a, b]);
    assert.notEqual(ta, tb);
    assert.equal(pi.written[0]?.id, ta);
    assert.equal(pi.written[1]?.id, tb);
    await client.close();
  });

  test("each command method sends its type and resolves with typed data", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    pi.handlers.set("get_available_models", (c) => [ok(c, { models: [{ id: "m" }] })]);
    pi.handlers.set("get_messages", (c) => [ok(c, { messages: [] })]);
    pi.handlers.set("get_last_assistant_text", (c) => [ok(c, {})]);
    pi.handlers.set("get_commands", (c) => [ok(c, { commands: [] })]);
    pi.handlers.set("get_fork_messages", (c) => [
      ok(c, { messages: [{ entryId: "e", text: "t" }] }),
    ]);
    pi.handlers.set("get_session_stats", (c) => [
      ok(c, { contextUsage: { tokens: 5, contextWindow: 10, percent: 50 } }),
    ]);
    pi.handlers.set("bash", (c) => [
      ok(c, { output: "x", exitCode: 0, cancelled: false, truncated: false }),
    ]);
    const calls: Array<[string, () => Promise<unknown>]> = [
      ["prompt", () => client.prompt("hi")],
      ["steer", () => client.steer("s")],
      ["follow_up", () => client.followUp("f")],
      ["abort", () => client.abort()],
      ["clear_queue", () => client.clearQueue()],
      ["new_session", () => client.newSession()],
      ["get_state", () => client.getState()],
      ["get_messages", () => client.getMessages()],
      ["set_model", () => client.setModel("p", "m")],
      ["cycle_model", () => client.cycleModel()],
      ["get_available_models", () => client.getAvailableModels()],
      ["set_thinking_level", () => client.setThinkingLevel("high")],
      ["cycle_thinking_level", () => client.cycleThinkingLevel()],
      ["get_available_thinking_levels", () => client.getAvailableThinkingLevels()],
      ["set_steering_mode", () => client.setSteeringMode("all")],
      ["set_follow_up_mode", () => client.setFollowUpMode("all")],
      ["compact", () => client.compact("be brief")],
      ["set_auto_compaction", () => client.setAutoCompaction(false)],
      ["set_auto_retry", () => client.setAutoRetry(false)],
      ["abort_retry", () => client.abortRetry()],
      ["bash", () => client.bash("ls")],
      ["abort_bash", () => client.abortBash()],
      ["get_session_stats", () => client.getSessionStats()],
      ["export_html", () => client.exportHtml("/tmp/x.html")],
      ["switch_session", () => client.switchSession("/tmp/s.jsonl")],
      ["fork", () => client.fork("e1")],
      ["clone", () => client.clone()],
      ["get_fork_messages", () => client.getForkMessages()],
      ["get_entries", () => client.getEntries("e0")],
      ["get_tree", () => client.getTree()],
      ["get_last_assistant_text", () => client.getLastAssistantText()],
      ["set_session_name", () => client.setSessionName("n")],
      ["get_commands", () => client.getCommands()],
    ];
    assert.equal(calls.length, 33);
    for (const [, call] of calls) await call();
    // A session command is followed by the one-round reload of the new session, and a bash call
    // by a resync that brings pi's copy of its message (whole the first time: no cursor yet).
    const reload = ["get_state", "get_messages", "get_entries"];
    const reloads = ["bash", "new_session", "switch_session", "fork", "clone"];
    assert.deepEqual(
      pi.written.map((c) => c.type),
      calls.flatMap(([type]) => (reloads.includes(type) ? [type, ...reload] : [type])),
    );
    assert.equal(await client.getLastAssistantText(), null);
    assert.deepEqual(await client.getForkMessages(), [{ entryId: "e", text: "t" }]);
    // The session commands after it reset the context usage: it belonged to the old session.
    assert.equal(client.session.getSnapshot().contextUsage, undefined);
    await client.getSessionStats();
    assert.equal(client.session.getSnapshot().contextUsage?.percent, 50);
    assert.equal(pi.written.find((c) => c.type === "compact")?.customInstructions, "be brief");
    assert.equal(pi.written.filter((c) => c.type === "get_entries").at(-1)?.since, "e0");
    assert.ok(!("parentSession" in (pi.written.find((c) => c.type === "new_session") ?? {})));
    await client.close();
  });

  test("an RPC failure rejects with rpc_failed, the command and pi's message", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    pi.handlers.set("fork", (c) => [fail(c, "Invalid entry ID for forking")]);
    await assert.rejects(client.fork("nope"), (e: unknown) => {
      assert.ok(e instanceof PiClientError);
      assert.equal(e.code, "rpc_failed");
      assert.equal(e.command, "fork");
      assert.equal(e.message, "Invalid entry ID for forking");
      return true;
    });
    await client.close();
  });
});

describe("PiClient timeouts, cancellation and late responses", () => {
  test("a timed-out call rejects; its late response is reported, never delivered as an event", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    const seen = diagnostics(client);
    const events: unknown[] = [];
    client.onEvent((e) => events.push(e));
    let late: Written | undefined;
    pi.handlers.set("get_commands", (c) => {
      late = c;
      return undefined;
    });
    await assert.rejects(
      client.getCommands({ timeoutMs: 20 }),
      (e: unknown) => e instanceof PiClientError && e.code === "timeout",
    );
    assert.ok(late);
    pi.push(ok(late, { commands: [] }));
    await flush();
    assert.deepEqual(
      seen.map((d) => d.kind),
      ["late_response"],
    );
    assert.equal(events.length, 0);
    await client.close();
  });

  test("quick commands get the default timeout; long ones none", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport, { defaultTimeoutMs: 30 });
    pi.handlers.set("get_commands", () => undefined);
    pi.handlers.set("compact", () => undefined);
    await assert.rejects(
      client.getCommands(),
      (e: unknown) => e instanceof PiClientError && e.code === "timeout",
    );
    const compact = client.compact();
    const outcome = await Promise.race([
      compact.then(
        () => "done",
        () => "failed",
      ),
      sleep(80).then(() => "pending"),
    ]);
    assert.equal(outcome, "pending");
    await client.close();
    await assert.rejects(
      compact,
      (e: unknown) => e instanceof PiClientError && e.code === "transport_closed",
    );
  });

  test("an aborted signal cancels the call and a later answer is reported as late", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    const seen = diagnostics(client);
    const controller = new AbortController();
    let held: Written | undefined;
    pi.handlers.set("bash", (c) => {
      held = c;
      return undefined;
    });
    const call = client.bash("sleep 10", { signal: controller.signal });
    await pi.waitFor("bash");
    controller.abort(new Error("user"));
    await assert.rejects(
      call,
      (e: unknown) => e instanceof PiClientError && e.code === "cancelled",
    );
    assert.ok(held);
    pi.push(ok(held, { output: "", cancelled: false, truncated: false }));
    await flush();
    assert.equal(seen[0]?.kind, "late_response");
    await client.close();
  });

  test("a response with a foreign id is reported as unmatched", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    const seen = diagnostics(client);
    pi.push({
      id: "someone-else",
      type: "response",
      command: "get_state",
      success: true,
      data: STATE,
    });
    await flush();
    assert.equal(seen[0]?.kind, "unmatched_response");
    await client.close();
  });
});

describe("PiClient id-less failures", () => {
  test("0.73's id-less Unknown command fails the pending call of that command as unsupported", async () => {
    const pi = new FakePi("0.73");
    const client = new PiClient(pi.transport, { capabilities: "1" });
    const seen = diagnostics(client);
    pi.handlers.set("get_state", () => undefined);
    const state = client.getState();
    const tree = client.getTree();
    // pi said it does not know the command: unsupported, and known as such from now on.
    await assert.rejects(
      tree,
      (e: unknown) =>
        e instanceof PiClientError && e.code === "unsupported" && /Unknown command/.test(e.message),
    );
    assert.equal(client.capabilities.supports("get_tree"), false);
    assert.equal(seen[0]?.kind, "idless_failure");
    // The unrelated get_state is still pending, not failed.
    const last = pi.written.find((c) => c.type === "get_state");
    assert.ok(last);
    pi.push(ok(last, STATE));
    assert.equal((await state).sessionId, "s1");
    await client.close();
  });

  test("an id-less parse error fails the most recent pending call and is reported", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    const seen = diagnostics(client);
    pi.handlers.set("get_commands", () => [
      {
        type: "response",
        command: "parse",
        success: false,
        error: "Failed to parse command: Unexpected token",
      },
    ]);
    await assert.rejects(
      client.getCommands(),
      (e: unknown) => e instanceof PiClientError && e.code === "rpc_failed",
    );
    assert.equal(seen[0]?.kind, "idless_failure");
    await client.close();
  });
});

describe("PiClient validation", () => {
  test("invalid commands are rejected before sending", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    const bad = { type: "bash" } as never;
    await assert.rejects(
      client.send(bad),
      (e: unknown) => e instanceof PiClientError && e.code === "invalid_command",
    );
    await assert.rejects(
      client.setSteeringMode("bogus" as never),
      (e: unknown) => e instanceof PiClientError && e.code === "invalid_command",
    );
    await flush();
    assert.equal(pi.written.length, 0);
    await client.close();
  });

  test("raw send returns the whole success response", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    const response = await client.send({ type: "get_state" });
    assert.equal(response.success, true);
    assert.equal(response.command, "get_state");
    await client.close();
  });
});

describe("PiClient transport close", () => {
  test("every pending call rejects as soon as pi dies, with exit code and stderr tail", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    pi.handlers.set("prompt", () => undefined);
    pi.handlers.set("get_state", () => undefined);
    pi.handlers.set("bash", () => undefined);
    const calls = [client.prompt("x"), client.getState(), client.bash("sleep 5")];
    await flush();
    const started = Date.now();
    pi.exit({ reason: "exit", exitCode: 137, signal: "SIGKILL", stderrTail: "killed here\n" });
    for (const call of calls) {
      await assert.rejects(call, (e: unknown) => {
        assert.ok(e instanceof PiClientError);
        assert.equal(e.code, "transport_closed");
        assert.equal(e.closeInfo?.exitCode, 137);
        assert.match(e.message, /killed here/);
        assert.match(e.message, /SIGKILL/);
        return true;
      });
    }
    // Rejected by the exit, not by the 30 s call timeout (bench/client/exit.bench.ts measures how soon).
    assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
    assert.equal(client.signal.aborted, true);
    await assert.rejects(
      client.getState(),
      (e: unknown) => e instanceof PiClientError && e.code === "transport_closed",
    );
    const info = await client.closed;
    assert.equal(info.exitCode, 137);
  });

  test("garbage, null, oversized and half-written lines are reported and the client keeps working", async () => {
    const bytes = new TransformStream<Uint8Array, Uint8Array>();
    const sink = new TransformStream<Uint8Array, Uint8Array>();
    const transport = createStreamTransport({
      readable: bytes.readable,
      writable: sink.writable,
      maxRecordBytes: 600,
    });
    const client = new PiClient(transport);
    const seen = diagnostics(client);
    const out = bytes.writable.getWriter();
    const enc = new TextEncoder();
    // The DOM typings give TextDecoderStream a BufferSource writable, wider than our Uint8Array.
    const lines = sink.readable
      .pipeThrough(new TextDecoderStream() as ReadableWritablePair<string, Uint8Array>)
      .getReader();
    const state = client.getState({ timeoutMs: 2000 });
    const { value } = await lines.read();
    const id = JSON.parse(String(value)).id;
    await out.write(enc.encode("this is not json\nnull\n[1,2]\n"));
    await out.write(enc.encode(`{"type":"x","pad":"${"a".repeat(2000)}"}\n`));
    // A response split across two writes is reassembled.
    const response = JSON.stringify({
      id,
      type: "response",
      command: "get_state",
      success: true,
      data: STATE,
    });
    await out.write(enc.encode(response.slice(0, 10)));
    await sleep(5);
    await out.write(enc.encode(`${response.slice(10)}\n`));
    await sleep(20);
    assert.equal((await state).sessionId, "s1");
    assert.ok(
      seen.filter((d) => d.kind === "protocol_error").length >= 3,
      JSON.stringify(seen.map((d) => d.kind)),
    );
    // A half-written last line at EOF is reported, and pending calls are rejected.
    const pending = client.getCommands();
    await out.write(enc.encode('{"type":"resp'));
    await out.close();
    await assert.rejects(
      pending,
      (e: unknown) => e instanceof PiClientError && e.code === "transport_closed",
    );
    assert.ok(seen.some((d) => d.error instanceof ProtocolError));
  });
});

type Written = import("../support/fake-pi.ts").Written;
