/**
 * Issue 11, defect 1: a call whose signal has already fired never reaches pi, whatever the call.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  type CallOptions,
  PiClient,
  type PiClientDiagnostic,
  PiClientError,
} from "../../src/index.ts";
import { FakePi, flush } from "../support/fake-pi.ts";

/** Every command method (and the raw and waiting ones), each given `options`. */
function everyCall(client: PiClient, o: CallOptions): Array<[string, () => Promise<unknown>]> {
  return [
    ["prompt", () => client.prompt("hi", o)],
    ["promptAndWait", () => client.promptAndWait("hi", o)],
    ["steer", () => client.steer("s", o)],
    ["follow_up", () => client.followUp("f", o)],
    ["abort", () => client.abort(o)],
    ["clear_queue", () => client.clearQueue(o)],
    ["new_session", () => client.newSession(undefined, o)],
    ["get_state", () => client.getState(o)],
    ["get_messages", () => client.getMessages(o)],
    ["set_model", () => client.setModel("p", "m", o)],
    ["cycle_model", () => client.cycleModel(o)],
    ["get_available_models", () => client.getAvailableModels(o)],
    ["set_thinking_level", () => client.setThinkingLevel("high", o)],
    ["cycle_thinking_level", () => client.cycleThinkingLevel(o)],
    ["get_available_thinking_levels", () => client.getAvailableThinkingLevels(o)],
    ["set_steering_mode", () => client.setSteeringMode("all", o)],
    ["set_follow_up_mode", () => client.setFollowUpMode("all", o)],
    ["compact", () => client.compact(undefined, o)],
    ["set_auto_compaction", () => client.setAutoCompaction(false, o)],
    ["set_auto_retry", () => client.setAutoRetry(false, o)],
    ["abort_retry", () => client.abortRetry(o)],
    ["bash", () => client.bash("echo ran > marker", o)],
    ["abort_bash", () => client.abortBash(o)],
    ["get_session_stats", () => client.getSessionStats(o)],
    ["export_html", () => client.exportHtml(undefined, o)],
    ["switch_session", () => client.switchSession("/tmp/s.jsonl", o)],
    ["fork", () => client.fork("e1", o)],
    ["clone", () => client.clone(o)],
    ["get_fork_messages", () => client.getForkMessages(o)],
    ["get_entries", () => client.getEntries(undefined, o)],
    ["get_tree", () => client.getTree(o)],
    ["get_last_assistant_text", () => client.getLastAssistantText(o)],
    ["set_session_name", () => client.setSessionName("n", o)],
    ["get_commands", () => client.getCommands(o)],
    ["send", () => client.send({ type: "get_state" }, o)],
    ["send (unknown type)", () => client.send({ type: "frobnicate" }, o)],
  ];
}

describe("an already-aborted signal", () => {
  test("every call rejects as cancelled and writes nothing", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    const diagnostics: PiClientDiagnostic[] = [];
    client.on("diagnostic", (d) => diagnostics.push(d));
    const calls = everyCall(client, { signal: AbortSignal.abort(new Error("too late")) });
    assert.equal(calls.length, 36);
    for (const [name, call] of calls) {
      await assert.rejects(call(), (e: unknown) => {
        assert.ok(e instanceof PiClientError, name);
        assert.equal(e.code, "cancelled", name);
        return true;
      });
    }
    await flush();
    assert.deepEqual(pi.written, [], "nothing reached pi");
    assert.deepEqual(diagnostics, [], "no late or unmatched response");
    // Nothing was started either: no bash run, no closed dialogs, no open run.
    assert.deepEqual(client.session.getSnapshot().bashRuns, []);
    assert.equal(client.isRunning, false);
    await client.close();
  });

  test("connect with an aborted signal rejects as cancelled without a handshake", async () => {
    const pi = new FakePi("1");
    await assert.rejects(
      PiClient.connect(pi.transport, { signal: AbortSignal.abort() }),
      (e: unknown) =>
        e instanceof PiClientError && e.code === "cancelled" && e.command === "connect",
    );
    assert.deepEqual(pi.written, []);
  });
});
