import assert from "node:assert/strict";
import { test } from "node:test";
import type { AgentMessage, SessionEntry, SessionState } from "@pi-kit/protocol";
import { ProvisionalMessages } from "../../src/session/bash-messages.ts";
import {
  initialSessionState,
  reduceSessionEvent,
  type SessionModelState,
} from "../../src/session/session-reducer.ts";
import { SessionResync, type SessionSource } from "../../src/session/session-resync.ts";
import type { SessionStamp } from "../../src/session/session-snapshot.ts";

const user = (content: string, timestamp: number): AgentMessage =>
  ({ role: "user", content, timestamp }) as AgentMessage;
const entry = (id: string, parentId: string | null, message: AgentMessage): SessionEntry =>
  ({ type: "message", id, parentId, timestamp: "2026-01-01T00:00:00Z", message }) as SessionEntry;
const piState = (sessionId: string): SessionState =>
  ({ sessionId, isStreaming: false, isCompacting: false }) as SessionState;

/** A session pi holds: its messages and entries, and every call a resync made. */
class FakeSession implements SessionSource {
  sessionId = "s1";
  messages: AgentMessage[] = [];
  entries: SessionEntry[] = [];
  readonly calls: string[] = [];
  /** The stamp answers carry, when the test says when they were read. */
  at: SessionStamp | undefined;

  getState = async (): Promise<SessionState> => {
    this.calls.push("get_state");
    return piState(this.sessionId);
  };

  getMessages = async () => {
    this.calls.push("get_messages");
    return { messages: [...this.messages], ...(this.at === undefined ? {} : { at: this.at }) };
  };

  getEntries = async (since?: string) => {
    this.calls.push(since === undefined ? "get_entries" : `get_entries since ${since}`);
    const from = since === undefined ? 0 : this.entries.findIndex((e) => e.id === since) + 1;
    if (since !== undefined && from === 0) throw new Error(`unknown entry ${since}`);
    return { entries: this.entries.slice(from), leafId: this.entries.at(-1)?.id ?? null };
  };

  append(id: string, message: AgentMessage): void {
    this.entries.push(entry(id, this.entries.at(-1)?.id ?? null, message));
    this.messages.push(message);
  }
}

/** A model's state holder, as `SessionModel` gives a resync. */
function model(source: SessionSource) {
  const provisional = new ProvisionalMessages();
  let state: SessionModelState = initialSessionState(provisional);
  const resync = new SessionResync(source, provisional, {
    state: () => state,
    set: (next) => {
      state = next;
    },
  });
  return {
    resync,
    state: () => state,
    event: (message: AgentMessage) => {
      state = reduceSessionEvent(state, { type: "message_end", message } as never);
    },
  };
}

test("session resync: the first loads the whole transcript, later ones only the entries since the cursor", async () => {
  const pi = new FakeSession();
  pi.append("e1", user("one", 1));
  const { resync } = model(pi);
  const first = await resync.run(false);
  assert.deepEqual(first.messages, [user("one", 1)]);
  assert.equal(first.lastEntryId, "e1");
  assert.equal(first.state?.sessionId, "s1");
  assert.deepEqual(pi.calls.sort(), ["get_entries", "get_messages", "get_state"]);

  pi.calls.length = 0;
  pi.append("e2", user("two", 2));
  const second = await resync.run(false);
  assert.deepEqual(second.messages, [user("one", 1), user("two", 2)]);
  assert.equal(second.lastEntryId, "e2");
  assert.deepEqual(pi.calls.sort(), ["get_entries since e1", "get_state"]);
});

test("session resync: entries that are no straight continuation, a lost cursor or another session load it whole", async () => {
  const pi = new FakeSession();
  pi.append("e1", user("one", 1));
  const { resync, state } = model(pi);
  await resync.run(false);

  // A branch: the entry after the cursor hangs off another one.
  pi.entries.push(entry("b1", null, user("branch", 3)));
  pi.messages = [user("branch", 3)];
  pi.calls.length = 0;
  assert.deepEqual((await resync.run(false)).messages, [user("branch", 3)]);
  assert.ok(pi.calls.includes("get_messages"));

  // pi restarted on another file: the cursor means nothing there.
  pi.sessionId = "s2";
  pi.entries = [];
  pi.messages = [];
  pi.append("x1", user("elsewhere", 4));
  pi.calls.length = 0;
  const moved = await resync.run(false);
  assert.deepEqual(moved.messages, [user("elsewhere", 4)]);
  assert.equal(moved.lastEntryId, "x1");
  assert.ok(pi.calls.includes("get_messages"));
  assert.equal(state().snapshot.state?.sessionId, "s2");
});

test("session resync: a fresh reload replaces the old session's cursor, tools and bash runs", async () => {
  const pi = new FakeSession();
  pi.append("e1", user("one", 1));
  const { resync } = model(pi);
  await resync.run(false);
  pi.calls.length = 0;
  const fresh = await resync.run(true);
  assert.ok(pi.calls.includes("get_messages"), "no cursor carries over");
  assert.deepEqual(fresh.bashRuns, []);
  assert.equal(fresh.toolExecutions.size, 0);
});

test("session resync: messages the stream delivered after pi's answer was read are kept once", async () => {
  const pi = new FakeSession();
  pi.append("e1", user("one", 1));
  const { resync, event } = model(pi);
  // pi read its answer before "two" reached this model: the answer lacks it.
  pi.at = { messages: 0, entries: 0 };
  const running = resync.run(false);
  event(user("two", 2));
  assert.deepEqual((await running).messages, [user("one", 1), user("two", 2)]);

  // An answer that already holds what the stream delivered does not double it.
  pi.append("e2", user("two", 2));
  pi.at = { messages: 0, entries: 0 };
  const again = model(pi);
  const second = again.resync.run(false);
  again.event(user("two", 2));
  assert.deepEqual((await second).messages, [user("one", 1), user("two", 2)]);
});

test("session resync: runs one at a time, in order, even after one failed", async () => {
  const pi = new FakeSession();
  const order: string[] = [];
  let fail = true;
  const getState = pi.getState;
  pi.getState = async () => {
    order.push(fail ? "first starts" : "second starts");
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (fail) {
      fail = false;
      throw new Error("dropped");
    }
    return getState();
  };
  const { resync } = model(pi);
  const first = resync.run(false);
  const second = resync.run(false);
  await assert.rejects(first, /dropped/);
  await second;
  assert.deepEqual(order, ["first starts", "second starts"]);
});
