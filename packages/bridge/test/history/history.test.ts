/**
 * Live, real pi: the history API through `BridgeSessionHistory` (list and page hundreds of
 * sessions, rename and delete running and stopped ones), and faults on disk (a run cut off, a
 * truncated session file, a session whose working directory is gone).
 */
import assert from "node:assert/strict";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { test } from "node:test";
import {
  BridgeSessionHistory,
  type SessionHistoryError,
  type SessionSummary,
} from "@pi-kit/client";
import { BridgeCloseCode } from "@pi-kit/protocol/bridge";
import { sessionHostOptions } from "@pi-kit/testing";
import { readDigest } from "../../src/history/read-digest.ts";
import { INTERRUPTED_NOTICE } from "../../src/index.ts";
import {
  connect,
  lineVersions,
  type Rec,
  rawUpgrade,
  startBridge,
  type TestBridge,
} from "../helpers.ts";
import { writePiSession } from "../pi-session-files.ts";

function historyOf(bridge: TestBridge): BridgeSessionHistory {
  return new BridgeSessionHistory({ baseUrl: bridge.url, token: bridge.token });
}

function sessionsDir(bridge: TestBridge): string {
  return sessionHostOptions(bridge.pi).sessionsDir;
}

/** The paths of the `*.jsonl` files of a session directory. */
function sessionFiles(bridge: TestBridge, name: string): string[] {
  return readdirSync(join(sessionsDir(bridge), name))
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => join(sessionsDir(bridge), name, f));
}

async function rejected(promise: Promise<unknown>): Promise<SessionHistoryError> {
  try {
    await promise;
  } catch (error) {
    return error as SessionHistoryError;
  }
  assert.fail("expected a rejection");
}

/** Sends a prompt and waits for the run to end (`agent_end`: 0.73 has no `agent_settled`). */
async function chat(client: Awaited<ReturnType<typeof connect>>, message: string): Promise<void> {
  const from = client.records.length;
  const response = await client.request({ type: "prompt", message }, 30_000);
  assert.equal(response.success, true);
  await client.waitFor((r) => r.type === "agent_end", 30_000, from);
}

const text = (message: unknown): string => JSON.stringify((message as Rec).content);

for (const version of lineVersions) {
  test(`interrupted, pi ${version}: a run cut off comes back as pi saved it, with a notice and a flag`, async () => {
    const bridge = await startBridge({ version });
    const history = historyOf(bridge);
    try {
      const first = await connect(bridge, "cut");
      await chat(first, "[[text first answer]]");
      const from = first.records.length;
      first.send({ type: "prompt", id: "slow", message: "Carry on [[slow 300ms x 100]]" });
      // The answer streams: pi has saved the user message.
      await first.waitFor((r) => r.type === "message_update", 30_000, from);
      process.kill(bridge.bridge.sessions.get("cut")?.info().pid as number, "SIGKILL");
      assert.equal((await first.closed).code, BridgeCloseCode.PiExited);

      const second = await connect(bridge, "cut");
      const notice = await second.waitFor((r) => r.method === "notify");
      assert.equal(notice.message, INTERRUPTED_NOTICE);
      assert.equal(notice.notifyType, "warning");
      const messages = (await second.request({ type: "get_messages" }, 20_000)).data as {
        messages: Rec[];
      };
      const last = messages.messages.at(-1);
      assert.equal(last?.role, "user");
      assert.match(text(last), /Carry on/);
      const cut = await history.get("cut");
      assert.equal(cut?.interrupted, true);
      assert.equal(cut?.state, "idle");

      await chat(second, "[[text carried on]]");
      assert.equal((await history.get("cut"))?.interrupted, undefined);
      await second.close();
      const third = await connect(bridge, "cut");
      await third.request({ type: "get_state" });
      assert.equal(third.records.filter((r) => r.method === "notify").length, 0, "said once");
      await third.close();
    } finally {
      await bridge.dispose();
    }
  });

  test(`truncated file, pi ${version}: the session opens with what is readable and nothing is lost`, async () => {
    const bridge = await startBridge({ version });
    try {
      const written = writePiSession(join(sessionsDir(bridge), "torn"), {
        cwd: bridge.pi.workspace,
        turns: 3,
        firstPrompt: "Before the crash",
      });
      const whole = readFileSync(written.path);
      const torn = whole.subarray(0, whole.length - 40);
      writeFileSync(written.path, torn);

      const client = await connect(bridge, "torn");
      const before = (await client.request({ type: "get_messages" }, 20_000)).data as {
        messages: Rec[];
      };
      assert.equal(before.messages.length, written.messages - 1, "all but the torn answer");
      await chat(client, "[[text after the crash]]");
      await client.close();
      const summary = await historyOf(bridge).stop("torn");
      assert.match(summary.damaged ?? "", /^1 line of .+\.jsonl could not be read$/);

      // The torn bytes are still there, and pi's new entries are whole lines after them.
      const after = readFileSync(written.path);
      assert.deepEqual(after.subarray(0, torn.length), torn);
      const digest = (await readDigest(written.path)).digest;
      assert.equal(digest.badLines, 1);
      const again = await connect(bridge, "torn");
      const messages = (await again.request({ type: "get_messages" }, 20_000)).data as {
        messages: Rec[];
      };
      assert.match(text(messages.messages.at(-1)), /after the crash/);
      // Every message pi holds is a whole line of the file (1.x also saved a system message).
      assert.equal(digest.messageCount, messages.messages.length);
      assert.ok(messages.messages.length >= written.messages - 1 + 2);
      await again.close();
    } finally {
      await bridge.dispose();
    }
  });

  test(`moved project, pi ${version}: a session whose directory is gone resumes as a fork, the original kept`, async () => {
    const bridge = await startBridge({ version });
    try {
      const gone = join(bridge.pi.tempRoot, "project-that-was-moved");
      const written = writePiSession(join(sessionsDir(bridge), "moved"), {
        cwd: gone,
        turns: 2,
        name: "Moved project",
      });
      const original = readFileSync(written.path);
      const client = await connect(bridge, "moved");
      const messages = (await client.request({ type: "get_messages" }, 20_000)).data as {
        messages: Rec[];
      };
      assert.equal(messages.messages.length, written.messages);
      const state = (await client.request({ type: "get_state" })).data as Rec;
      assert.equal(state.sessionName, "Moved project");
      assert.notEqual(state.sessionFile, written.path);
      await client.close();
      assert.deepEqual(readFileSync(written.path), original);
      assert.equal(sessionFiles(bridge, "moved").length, 2);
      assert.equal((await historyOf(bridge).get("moved"))?.title, "Moved project");
    } finally {
      await bridge.dispose();
    }
  });

  test(`switched files, pi ${version}: a resume continues the file the user moved to`, async () => {
    const bridge = await startBridge({ version });
    try {
      const client = await connect(bridge, "multi");
      await chat(client, "[[text in the first file]]");
      const state = async () => (await client.request({ type: "get_state" })).data as Rec;
      const first = (await state()).sessionFile as string;
      assert.equal((await client.request({ type: "new_session" }, 20_000)).success, true);
      await chat(client, "[[text in the second file]]");
      const second = (await state()).sessionFile as string;
      assert.notEqual(second, first);
      const switched = await client.request({ type: "switch_session", sessionPath: first }, 20_000);
      assert.equal(switched.success, true);
      await historyOf(bridge).stop("multi");
      assert.equal(sessionFiles(bridge, "multi").length, 2);

      const back = await connect(bridge, "multi");
      const resumed = (await back.request({ type: "get_state" }, 20_000)).data as Rec;
      assert.equal(resumed.sessionFile, first);
      const messages = (await back.request({ type: "get_messages" })).data as { messages: Rec[] };
      assert.match(text(messages.messages.at(-1)), /in the first file/);
      await back.close();
    } finally {
      await bridge.dispose();
    }
  });

  test(`rename and delete, pi ${version}: on running and stopped sessions; a deleted session leaves no pi`, async () => {
    const bridge = await startBridge({ version });
    const history = historyOf(bridge);
    try {
      const created = await history.create("work");
      assert.equal(created.state, "idle");
      const client = await connect(bridge, "work");
      await chat(client, "[[text hello there]]");

      const running = await history.rename("work", "Running\nrename ");
      assert.equal(running.title, "Running rename");
      const event = await client.waitFor((r) => r.type === "session_info_changed");
      assert.equal(event.name, "Running rename");
      const stopped = await history.stop("work");
      assert.equal(stopped.state, "stopped");
      assert.equal((await client.closed).code, BridgeCloseCode.SessionClosed);
      assert.equal(stopped.title, "Running rename");

      const renamed = await history.rename("work", "Stopped rename");
      assert.equal(renamed.title, "Stopped rename");
      assert.equal(renamed.state, "stopped");
      const back = await connect(bridge, "work");
      const state = (await back.request({ type: "get_state" }, 20_000)).data as Rec;
      assert.equal(state.sessionName, "Stopped rename", "pi reads the name back");
      const messages = (await back.request({ type: "get_messages" })).data as { messages: Rec[] };
      assert.match(text(messages.messages.at(-1)), /hello there/);

      const pid = bridge.bridge.sessions.get("work")?.info().pid as number;
      await history.delete("work");
      const closed = await back.closed;
      assert.equal(closed.code, BridgeCloseCode.SessionClosed);
      assert.equal(JSON.parse(closed.reason).reason, "deleted");
      assert.throws(() => process.kill(pid, 0), /ESRCH/, "no pi left behind");
      assert.equal(existsSync(join(sessionsDir(bridge), "work")), false);
      assert.equal(await history.get("work"), undefined);

      // A stopped session is deleted the same way.
      const old = await connect(bridge, "old");
      await chat(old, "[[text keep me]]");
      await old.close();
      await history.stop("old");
      await history.delete("old");
      assert.equal(existsSync(join(sessionsDir(bridge), "old")), false);
      assert.deepEqual((await history.list()).sessions, []);

      // A session named before its first message: pi had not saved it; the bridge does.
      await history.create("draft");
      assert.equal((await history.rename("draft", "Draft title")).title, "Draft title");
      assert.equal((await history.stop("draft")).title, "Draft title");
      const waiting = join(sessionsDir(bridge), "draft", ".pi-kit-name");
      assert.equal(sessionFiles(bridge, "draft").length, 0, "the bridge writes no pi file for pi");
      assert.equal(readFileSync(waiting, "utf8"), "Draft title\n");
      const draft = await connect(bridge, "draft");
      const named = (await draft.request({ type: "get_state" }, 20_000)).data as Rec;
      assert.equal(named.sessionName, "Draft title");
      await chat(draft, "[[text now with a message]]");
      await draft.close();
      await history.stop("draft");
      const reopened = await connect(bridge, "draft");
      const kept = (await reopened.request({ type: "get_state" }, 20_000)).data as Rec;
      assert.equal(kept.sessionName, "Draft title");
      const said = (await reopened.request({ type: "get_messages" })).data as { messages: Rec[] };
      assert.match(text(said.messages.at(-1)), /now with a message/);
      await reopened.close();
      assert.equal(existsSync(waiting), false, "pi saved the name: nothing waits any more");
      const draftSummary = await history.get("draft");
      assert.equal(draftSummary?.title, "Draft title");
      assert.equal(draftSummary?.damaged, undefined);

      assert.equal((await rejected(history.rename("draft", "  "))).code, "invalid_request");
      assert.equal((await rejected(history.rename("nobody", "x"))).code, "not_found");
      assert.equal((await rejected(history.delete("nobody"))).code, "not_found");
      assert.equal((await rejected(history.stop("nobody"))).code, "not_found");
    } finally {
      await bridge.dispose();
    }
  });
}

test("500 sessions on disk are listed newest first and paged, filtered, by HTTP and BridgeSessionHistory", async () => {
  const root = mkdtempSync(join(tmpdir(), "pi-kit-500-"));
  const base = Date.parse("2026-06-01T00:00:00Z");
  for (let i = 0; i < 500; i++) {
    const { path } = writePiSession(join(root, `s${String(i).padStart(3, "0")}`), {
      cwd: root,
      turns: 1 + (i % 3),
      firstPrompt: `Task ${i}`,
    });
    const at = new Date(base + i * 60_000);
    utimesSync(path, at, at);
  }
  const bridge = await startBridge({ sessionsDir: root, autoCreate: false });
  const history = historyOf(bridge);
  try {
    const seen: SessionSummary[] = [];
    let cursor: string | undefined;
    do {
      const page = await history.list({ limit: 64, ...(cursor ? { cursor } : {}) });
      assert.ok(page.sessions.length <= 64);
      seen.push(...page.sessions);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    assert.equal(seen.length, 500);
    assert.deepEqual(
      seen.map((s) => s.name),
      Array.from({ length: 500 }, (_, i) => `s${String(499 - i).padStart(3, "0")}`),
    );
    const s7 = seen.find((s) => s.name === "s007");
    assert.equal(s7?.title, "Task 7");
    assert.equal(s7?.messageCount, 4);
    assert.equal(s7?.state, "stopped");
    assert.equal(s7?.lastActivity, new Date(base + 7 * 60_000).toISOString());

    const capped = (await (
      await fetch(`${bridge.url}/api/sessions?limit=100000`, {
        headers: { authorization: `Bearer ${bridge.token}` },
      })
    ).json()) as { sessions: SessionSummary[] };
    assert.equal(capped.sessions.length, 200, "the page size is capped");
    const filtered = await history.list({ query: "task 49", limit: 5 });
    assert.deepEqual(
      filtered.sessions.map((s) => s.title),
      ["Task 499", "Task 498", "Task 497", "Task 496", "Task 495"],
    );
    const rest = await history.list({
      query: "task 49",
      limit: 50,
      cursor: filtered.nextCursor ?? "",
    });
    assert.equal(rest.sessions.length, 6, "Task 494-490 and Task 49");
    assert.equal(rest.nextCursor, null);
    // The search matches the text of the messages too, not only titles: the user's later
    // questions (three-turn sessions ask a third) and pi's answers.
    const asked = await history.list({ query: "QUESTION   3:", limit: 3 });
    assert.deepEqual(
      asked.sessions.map((s) => s.name),
      ["s497", "s494", "s491"],
    );
    const asked2 = await (
      await fetch(`${bridge.url}/api/sessions?limit=200&q=${encodeURIComponent("question 3")}`, {
        headers: { authorization: `Bearer ${bridge.token}` },
      })
    ).json();
    assert.equal((asked2 as { sessions: unknown[] }).sessions.length, 166, "by HTTP, every one");
    const answered = await history.list({ query: "reads a continued line twice", limit: 200 });
    assert.equal(answered.sessions.length, 200, "every session's answer says it");
    for (const bad of ["limit=0", "limit=abc", "cursor=nonsense"]) {
      const response = await fetch(`${bridge.url}/api/sessions?${bad}`, {
        headers: { authorization: `Bearer ${bridge.token}` },
      });
      assert.equal(response.status, 400, bad);
      await response.body?.cancel();
    }

    // Opening one (autoCreate is off, but it is on disk) resumes it; reading it is no activity:
    // it keeps its "last active" time and its place in the list.
    const client = await connect(bridge, "s003");
    const messages = (await client.request({ type: "get_messages" }, 20_000)).data as {
      messages: Rec[];
    };
    assert.match(text(messages.messages[0]), /Task 3/);
    await client.request({ type: "get_state" }, 20_000);
    const top = (await history.list({ limit: 1 })).sessions[0];
    assert.equal(top?.name, "s499", "opening a conversation does not move it to the top");
    const opened = await history.get("s003");
    assert.equal(opened?.state, "idle");
    assert.equal(opened?.lastActivity, new Date(base + 3 * 60_000).toISOString());
    const around = await history.list({ query: "task 3", limit: 200 });
    assert.deepEqual(
      around.sessions.slice(-2).map((s) => s.name),
      ["s030", "s003"],
      "it keeps its place among the others",
    );
    await client.close();
    // ...while a name that is not on disk is refused.
    const unknown = await rawUpgrade(bridge, "/sessions/nobody/ws", {
      authorization: `Bearer ${bridge.token}`,
      "sec-websocket-protocol": "pi-kit.v1",
    });
    assert.equal(unknown.closeCode, BridgeCloseCode.NoSuchSession);
  } finally {
    await bridge.dispose();
    rmSync(root, { recursive: true, force: true });
  }
});

test("an unreadable session directory is listed as damaged and refused with 409, and the bridge goes on", async () => {
  const root = mkdtempSync(join(tmpdir(), "pi-kit-unreadable-"));
  // A link to itself: the system refuses to read it (ELOOP), whoever asks (even root).
  symlinkSync(join(root, "loop"), join(root, "loop"));
  const bridge = await startBridge({ sessionsDir: root });
  const history = historyOf(bridge);
  try {
    const [loop] = (await history.list()).sessions;
    assert.equal(loop?.name, "loop");
    assert.match(loop?.damaged ?? "", /^Cannot read the session directory: .*\(ELOOP\)$/);
    const refused = await rejected(history.create("loop"));
    assert.equal(refused.code, "conflict");
    assert.equal(refused.hostCode, "session_unreadable");
    assert.equal((await rejected(history.rename("loop", "x"))).code, "conflict");
    const fine = await history.create("fine");
    assert.equal(fine.state, "idle");
  } finally {
    await bridge.dispose();
    rmSync(root, { recursive: true, force: true });
  }
});

test("CORS: a page from an allowed origin may call every history method; others get no CORS headers", async () => {
  const bridge = await startBridge({ origins: ["https://app.example"] });
  try {
    const preflight = (origin: string, method: string) =>
      fetch(`${bridge.url}/api/sessions/some-name`, {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": method,
          "access-control-request-headers": "authorization,content-type",
        },
      });
    for (const method of ["GET", "POST", "PATCH", "DELETE"]) {
      const allowed = await preflight("https://app.example", method);
      assert.equal(allowed.headers.get("access-control-allow-origin"), "https://app.example");
      assert.match(allowed.headers.get("access-control-allow-methods") ?? "", new RegExp(method));
      await allowed.body?.cancel();
    }
    const foreign = await preflight("https://evil.example", "DELETE");
    assert.equal(foreign.headers.get("access-control-allow-origin"), null);
    await foreign.body?.cancel();
  } finally {
    await bridge.dispose();
  }
});
