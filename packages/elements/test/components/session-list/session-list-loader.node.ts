// The paging policy of <pi-session-list> without a DOM (SessionListLoader): pages append, a refresh
// merges a fresh first page, a new load supersedes the one in flight, a refresh asked for during a
// refresh runs once after it, and a failure is reported once. Run by `npm test` with node:test.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { SessionHistory, SessionPage, SessionSummary } from "@pi-kit/client";
import {
  type LoadMode,
  SessionListLoader,
  type SessionListState,
} from "../../../src/components/session-list/session-list-loader.ts";

const summary = (name: string): SessionSummary =>
  ({ name, title: name, messageCount: 1 }) as unknown as SessionSummary;

/** A history whose `list` calls wait until the test answers them, in the order they came. */
function pendingHistory() {
  const calls: {
    options: { cursor?: string; query?: string; signal?: AbortSignal };
    answer: (page: SessionPage) => void;
    fail: (error: Error) => void;
  }[] = [];
  const history = {
    list: (options: { cursor?: string; query?: string; signal?: AbortSignal }) =>
      new Promise<SessionPage>((answer, fail) => calls.push({ options, answer, fail })),
  } as unknown as SessionHistory;
  return { history, calls };
}

function loaderOf(history: SessionHistory, query = "") {
  const list: SessionListState = {
    history,
    pageSize: 2,
    sessions: [],
    loading: false,
    error: undefined,
  };
  const loaded: [LoadMode, string][] = [];
  const failures: unknown[] = [];
  const loader = new SessionListLoader(list, {
    query: () => query,
    loaded: (mode, q) => loaded.push([mode, q]),
    failed: (error) => failures.push(error),
  });
  return { list, loader, loaded, failures };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

test("pages append after the first, and a refresh merges a fresh first page in front", async () => {
  const { history, calls } = pendingHistory();
  const { list, loader, loaded } = loaderOf(history);
  const first = loader.load("reset");
  assert.equal(list.loading, true);
  calls[0]?.answer({ sessions: [summary("b"), summary("a")], nextCursor: "c1" });
  await first;
  assert.deepEqual(
    list.sessions.map((s) => s.name),
    ["b", "a"],
  );
  assert.equal(loader.hasMore, true);
  assert.equal(list.loading, false);

  const more = loader.load("more");
  assert.equal(calls[1]?.options.cursor, "c1");
  calls[1]?.answer({ sessions: [summary("a"), summary("z")], nextCursor: null });
  await more;
  assert.deepEqual(
    list.sessions.map((s) => s.name),
    ["b", "a", "z"],
    "known names not repeated",
  );
  assert.equal(loader.hasMore, false);

  const refresh = loader.load("refresh");
  calls[2]?.answer({ sessions: [summary("new"), summary("b")], nextCursor: "c2" });
  await refresh;
  assert.equal(list.sessions[0]?.name, "new");
  assert.ok(
    list.sessions.some((s) => s.name === "z"),
    "later pages are kept",
  );
  assert.deepEqual(
    loaded.map(([mode]) => mode),
    ["reset", "more", "refresh"],
  );
});

test("a new load supersedes the one in flight; a refresh during a refresh runs once after it", async () => {
  const { history, calls } = pendingHistory();
  const { list, loader } = loaderOf(history);
  const stale = loader.load("reset");
  const fresh = loader.load("reset");
  assert.equal(calls[0]?.options.signal?.aborted, true, "the first request is cancelled");
  calls[0]?.answer({ sessions: [summary("stale")], nextCursor: null });
  calls[1]?.answer({ sessions: [summary("fresh")], nextCursor: null });
  await Promise.all([stale, fresh]);
  assert.deepEqual(
    list.sessions.map((s) => s.name),
    ["fresh"],
  );

  const refresh = loader.load("refresh");
  await loader.load("refresh");
  await loader.load("refresh");
  assert.equal(calls.length, 3, "the refreshes asked for meanwhile wait");
  assert.equal(calls[2]?.options.signal?.aborted, false, "the refresh in flight goes on");
  calls[2]?.answer({ sessions: [summary("fresh")], nextCursor: null });
  await refresh;
  await tick();
  assert.equal(calls.length, 4, "one more refresh, not two");
  calls[3]?.answer({ sessions: [summary("later"), summary("fresh")], nextCursor: null });
  await tick();
  assert.deepEqual(
    list.sessions.map((s) => s.name),
    ["later", "fresh"],
  );
  assert.equal(list.loading, false);
});

test("a failed load sets the error and reports it once; a superseded one reports nothing", async () => {
  const { history, calls } = pendingHistory();
  const { list, loader, failures } = loaderOf(history, "needle");
  const superseded = loader.load("reset");
  const failing = loader.load("reset");
  assert.equal(calls[1]?.options.query, "needle");
  calls[0]?.fail(new Error("aborted"));
  calls[1]?.fail(new Error("bridge down"));
  await Promise.all([superseded, failing]);
  assert.equal(list.error, "bridge down");
  assert.equal(failures.length, 1);
  assert.equal(list.loading, false);
  assert.equal(loader.loadedOnce, false);
});
