import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PiClient, type SessionChangedEvent } from "../../src/index.ts";
import { FakePi, ok, STATE, type Written } from "../support/fake-pi.ts";

const oldUser = { role: "user", content: "old question", timestamp: 1 };
const oldAnswer = {
  role: "assistant",
  content: [{ type: "text", text: "old answer" }],
  stopReason: "stop",
  timestamp: 2,
};
const newUser = { role: "user", content: "kept on the branch", timestamp: 3 };

/** A fake pi that switches from session `s1` to `s2` when a session command succeeds. */
function switchingPi(version: "1" | "0.73"): FakePi {
  const pi = new FakePi(version);
  let session = {
    id: "s1",
    file: "/sessions/s1.jsonl",
    messages: [oldUser, oldAnswer] as unknown[],
  };
  const entries = (messages: readonly unknown[]) =>
    messages.map((message, i) => ({
      type: "message",
      id: `${session.id}-e${i}`,
      parentId: i === 0 ? null : `${session.id}-e${i - 1}`,
      timestamp: "2026-01-01T00:00:00.000Z",
      message,
    }));
  pi.handlers.set("get_state", (c) => [
    ok(c, { ...STATE, sessionId: session.id, sessionFile: session.file }),
  ]);
  pi.handlers.set("get_messages", (c) => [ok(c, { messages: session.messages })]);
  pi.handlers.set("get_entries", (c) => {
    const all = entries(session.messages);
    return [ok(c, { entries: all, leafId: all.at(-1)?.id ?? null })];
  });
  const change = (c: Written, data: Record<string, unknown>, messages: unknown[]) => {
    session = { id: "s2", file: "/sessions/s2.jsonl", messages };
    return [ok(c, data)];
  };
  pi.handlers.set("new_session", (c) => change(c, { cancelled: false }, []));
  pi.handlers.set("switch_session", (c) => change(c, { cancelled: false }, [newUser]));
  pi.handlers.set("fork", (c) => change(c, { text: "old question", cancelled: false }, [newUser]));
  pi.handlers.set("clone", (c) => change(c, { cancelled: false }, [oldUser, oldAnswer]));
  return pi;
}

const COMMANDS = {
  new_session: { call: (client: PiClient) => client.newSession(), messages: [] },
  switch_session: {
    call: (client: PiClient) => client.switchSession("/sessions/s2.jsonl"),
    messages: [newUser],
  },
  fork: { call: (client: PiClient) => client.fork("s1-e0"), messages: [newUser] },
  clone: { call: (client: PiClient) => client.clone(), messages: [oldUser, oldAnswer] },
} as const;

describe("session changes", () => {
  for (const version of ["1", "0.73"] as const) {
    for (const [reason, { call, messages }] of Object.entries(COMMANDS)) {
      test(`${version}: ${reason} loads the new session, then emits one session_changed`, async () => {
        const pi = switchingPi(version);
        const client = await PiClient.connect(pi.transport, { resync: true });
        assert.deepEqual(client.session.getSnapshot().messages, [oldUser, oldAnswer]);
        const seen: Array<{ event: SessionChangedEvent; shown: readonly unknown[] }> = [];
        client.on("session_changed", (event) =>
          seen.push({ event, shown: client.session.getSnapshot().messages }),
        );
        // The state and the transcript are asked for together: get_state waits for its answer
        // until the others were sent, which only one round can satisfy.
        let sentWithState: string[] = [];
        pi.handlers.set("get_state", (c, fake) => {
          setTimeout(() => {
            sentWithState = fake.written.slice(fake.written.indexOf(c)).map((w) => w.type);
            fake.push(ok(c, { ...STATE, sessionId: "s2", sessionFile: "/sessions/s2.jsonl" }));
          }, 10);
          return undefined;
        });
        const before = pi.written.length;
        await call(client);
        assert.deepEqual(
          sentWithState.sort(),
          version === "1"
            ? ["get_entries", "get_messages", "get_state"]
            : ["get_messages", "get_state"],
        );

        assert.equal(seen.length, 1);
        assert.deepEqual(seen[0]?.event, {
          type: "session_changed",
          reason,
          sessionId: "s2",
          sessionFile: "/sessions/s2.jsonl",
        });
        // The listener already saw the new transcript, and the old one is gone.
        assert.deepEqual(seen[0]?.shown, messages);
        assert.deepEqual(client.session.getSnapshot().messages, messages);
        assert.equal(client.session.getSnapshot().state?.sessionId, "s2");
        // One round: get_state, get_messages (and get_entries on 1.x), never one call per message.
        const reload = pi.written.slice(before + 1).map((c) => c.type);
        assert.deepEqual(
          reload.sort(),
          version === "1"
            ? ["get_entries", "get_messages", "get_state"]
            : ["get_messages", "get_state"],
        );
        if (version === "1") {
          const entries = pi.written.slice(before).find((c) => c.type === "get_entries");
          assert.equal(
            entries?.since,
            undefined,
            "a new session is loaded whole, not since a cursor",
          );
          assert.equal(
            client.session.getSnapshot().lastEntryId,
            messages.length > 0 ? `s2-e${messages.length - 1}` : undefined,
          );
        }
        await client.close();
      });
    }
  }

  test("a session command an extension cancelled changes nothing and emits nothing", async () => {
    const pi = switchingPi("1");
    pi.handlers.set("new_session", (c) => [ok(c, { cancelled: true })]);
    const client = await PiClient.connect(pi.transport, { resync: true });
    let changes = 0;
    client.on("session_changed", () => changes++);
    const before = pi.written.length;
    assert.deepEqual(await client.newSession(), { cancelled: true });
    assert.equal(changes, 0);
    assert.equal(pi.written.length, before + 1);
    assert.deepEqual(client.session.getSnapshot().messages, [oldUser, oldAnswer]);
    await client.close();
  });

  test("a raw send of a session command updates the session as the method does", async () => {
    const pi = switchingPi("1");
    const client = await PiClient.connect(pi.transport, { resync: true });
    const reasons: string[] = [];
    client.on("session_changed", (e) => reasons.push(e.reason));
    await client.send({ type: "new_session" });
    await client.request({ type: "fork", entryId: "s2-e0" });
    assert.deepEqual(reasons, ["new_session", "fork"]);
    await client.close();
  });

  test("the old session's tool executions, bash runs and usage do not carry over", async () => {
    const pi = switchingPi("1");
    pi.handlers.set("bash", (c) => [
      ok(c, { output: "x\n", exitCode: 0, cancelled: false, truncated: false }),
    ]);
    const client = await PiClient.connect(pi.transport, { resync: true });
    await client.bash("echo x");
    pi.push({ type: "tool_execution_start", toolCallId: "t1", toolName: "bash", args: {} });
    pi.push({ type: "message_end", message: { ...oldAnswer, usage: { input: 1, output: 2 } } });
    await client.getState();
    assert.equal(client.session.getSnapshot().toolExecutions.size, 1);
    await client.newSession();
    const snapshot = client.session.getSnapshot();
    assert.equal(snapshot.toolExecutions.size, 0);
    assert.deepEqual(snapshot.bashRuns, []);
    assert.equal(snapshot.usage, undefined);
    assert.deepEqual(snapshot.messages, []);
    await client.close();
  });
});

describe("reopening a long session stays cheap", () => {
  test("the first load of 2000 messages is one get_messages/get_entries round, not one per message", async () => {
    const pi = new FakePi("1");
    const messages = Array.from({ length: 2000 }, (_, i) => ({
      role: i % 2 === 0 ? "user" : "assistant",
      content: i % 2 === 0 ? `question ${i}` : [{ type: "text", text: `answer ${i}` }],
      ...(i % 2 === 0 ? {} : { stopReason: "stop" }),
      timestamp: i,
    }));
    const entries = messages.map((message, i) => ({
      type: "message",
      id: `e${i}`,
      parentId: i === 0 ? null : `e${i - 1}`,
      timestamp: "2026-01-01T00:00:00.000Z",
      message,
    }));
    pi.handlers.set("get_messages", (c) => [ok(c, { messages })]);
    pi.handlers.set("get_entries", (c) => {
      const since =
        typeof c.since === "string" ? entries.findIndex((e) => e.id === c.since) + 1 : 0;
      return [ok(c, { entries: entries.slice(since), leafId: entries.at(-1)?.id ?? null })];
    });
    const client = await PiClient.connect(pi.transport, { resync: true });
    assert.equal(client.session.getSnapshot().messages.length, 2000);
    assert.deepEqual(pi.written.map((c) => c.type).sort(), [
      "get_available_thinking_levels",
      "get_entries",
      "get_messages",
      "get_state",
      "get_state",
    ]);
    // A later resync (as after a reconnect) asks only for the entries since its cursor.
    const before = pi.written.length;
    await client.session.resync();
    const again = pi.written.slice(before);
    assert.deepEqual(again.map((c) => c.type).sort(), ["get_entries", "get_state"]);
    assert.equal(again.find((c) => c.type === "get_entries")?.since, "e1999");
    assert.equal(client.session.getSnapshot().messages.length, 2000);
    await client.close();
  });
});
