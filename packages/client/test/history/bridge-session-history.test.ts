/**
 * BridgeSessionHistory against a fake fetch: the requests it makes (URL, method, headers, body),
 * the answers it accepts, and the typed errors it rejects with. Its run against a real bridge is
 * in the bridge's tests.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { BridgeSessionHistory, SessionHistoryError, type SessionSummary } from "../../src/index.ts";

const summary: SessionSummary = {
  name: "alpha",
  title: "Fix the parser",
  createdAt: "2026-11-30T10:00:00.000Z",
  lastActivity: "2026-11-30T10:05:00.000Z",
  messageCount: 4,
  state: "stopped",
  sizeBytes: 2048,
};

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fetch that records each call and answers with `answer(call)`. */
function fakeFetch(answer: (call: Call) => Response | Promise<Response>): {
  fetch: typeof fetch;
  calls: Call[];
} {
  const calls: Call[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const call: Call = {
      url: String(input),
      method: init?.method ?? "GET",
      headers: { ...(init?.headers as Record<string, string>) },
      body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    return answer(call);
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

async function rejection(promise: Promise<unknown>): Promise<SessionHistoryError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof SessionHistoryError, `not a SessionHistoryError: ${error}`);
    return error;
  }
  assert.fail("expected a rejection");
}

test("list: the query becomes limit, cursor and q; the token a bearer header", async () => {
  const { fetch, calls } = fakeFetch(() => json({ sessions: [summary], nextCursor: "c2" }));
  const history = new BridgeSessionHistory({ baseUrl: "http://bridge.test/", token: "t0k", fetch });
  const page = await history.list({ limit: 20, cursor: "c1", query: "parser" });
  assert.deepEqual(page, { sessions: [summary], nextCursor: "c2" });
  assert.equal(calls[0]?.url, "http://bridge.test/api/sessions?limit=20&cursor=c1&q=parser");
  assert.equal(calls[0]?.method, "GET");
  assert.equal(calls[0]?.headers.authorization, "Bearer t0k");

  await history.list();
  assert.equal(calls[1]?.url, "http://bridge.test/api/sessions");
});

test("a mount path and no token: the paths follow it and no authorization is sent", async () => {
  const { fetch, calls } = fakeFetch(() => json({ session: summary }));
  const history = new BridgeSessionHistory({ baseUrl: "/pi", fetch });
  await history.stop("alpha");
  assert.equal(calls[0]?.url, "/pi/api/sessions/alpha/stop");
  assert.equal(calls[0]?.method, "POST");
  assert.equal(calls[0]?.headers.authorization, undefined);
});

test("get, create, rename, delete: methods, bodies and answers", async () => {
  const { fetch, calls } = fakeFetch((call) => {
    if (call.method === "DELETE") return new Response(null, { status: 204 });
    if (call.url.endsWith("/missing")) return json({ error: "No such session" }, 404);
    if (call.method === "POST") return json({ session: { ...summary, state: "idle" } }, 201);
    if (call.method === "PATCH") return json({ session: { ...summary, title: "New" } });
    return json({ session: summary });
  });
  const history = new BridgeSessionHistory({ baseUrl: "http://bridge.test", fetch });
  assert.deepEqual(await history.get("alpha"), summary);
  assert.equal(await history.get("missing"), undefined, "404 reads as no such session");
  assert.equal((await history.create("alpha")).state, "idle");
  assert.deepEqual(calls.at(-1)?.body, { name: "alpha" });
  await history.create();
  assert.deepEqual(calls.at(-1)?.body, {});
  assert.equal((await history.rename("alpha", "New")).title, "New");
  assert.deepEqual(calls.at(-1), {
    url: "http://bridge.test/api/sessions/alpha",
    method: "PATCH",
    headers: { accept: "application/json", "content-type": "application/json" },
    body: { title: "New" },
  });
  assert.equal(await history.delete("alpha"), undefined);
  assert.equal(calls.at(-1)?.method, "DELETE");
});

test("names are URL-encoded into the path", async () => {
  const { fetch, calls } = fakeFetch(() =>
    json({ error: "bad name", code: "invalid_session_name" }, 400),
  );
  const history = new BridgeSessionHistory({ baseUrl: "http://bridge.test", fetch });
  const error = await rejection(history.rename("../etc", "x"));
  assert.equal(calls[0]?.url, "http://bridge.test/api/sessions/..%2Fetc");
  assert.equal(error.code, "invalid_request");
  assert.equal(error.hostCode, "invalid_session_name");
  assert.equal(error.message, "bad name");
});

test("HTTP failures map to codes, with the status and the bridge's own code", async () => {
  const cases: Array<[number, unknown, string, string | undefined]> = [
    [401, { error: "Wrong token" }, "unauthorized", undefined],
    [403, { error: "Origin not allowed" }, "forbidden", undefined],
    [404, { error: "No such session" }, "not_found", undefined],
    [409, { error: "unreadable", code: "session_unreadable" }, "conflict", "session_unreadable"],
    [503, { error: "full", code: "too_many_sessions" }, "unavailable", "too_many_sessions"],
    [504, { error: "slow", code: "pi_timeout" }, "unavailable", "pi_timeout"],
    [500, "not json at all", "server_error", undefined],
  ];
  for (const [status, body, code, hostCode] of cases) {
    const { fetch } = fakeFetch(() =>
      typeof body === "string" ? new Response(body, { status }) : json(body, status),
    );
    const history = new BridgeSessionHistory({ baseUrl: "http://bridge.test", fetch });
    const error = await rejection(history.delete("alpha"));
    assert.equal(error.code, code, `status ${status}`);
    assert.equal(error.status, status);
    assert.equal(error.hostCode, hostCode);
  }
});

test("an unreachable bridge is a network error; a foreign answer a bad response", async () => {
  const down = new BridgeSessionHistory({
    baseUrl: "http://bridge.test",
    fetch: fakeFetch(() => Promise.reject(new TypeError("fetch failed"))).fetch,
  });
  const network = await rejection(down.list());
  assert.equal(network.code, "network");
  assert.ok(network.cause instanceof TypeError);

  const answers = [
    new Response("<html>proxy</html>", { status: 200 }),
    json({ sessions: [{ name: "x" }], nextCursor: null }),
    json({ sessions: [], nextCursor: 5 }),
  ];
  for (const answer of answers) {
    const odd = new BridgeSessionHistory({
      baseUrl: "http://bridge.test",
      fetch: fakeFetch(() => answer).fetch,
    });
    assert.equal((await rejection(odd.list())).code, "bad_response");
  }
  const noSession = new BridgeSessionHistory({
    baseUrl: "http://bridge.test",
    fetch: fakeFetch(() => json({ ok: true })).fetch,
  });
  assert.equal((await rejection(noSession.create("a"))).code, "bad_response");
});

test("an aborted call rejects as cancelled, with the signal's reason as cause", async () => {
  const fetch = ((_input: unknown, init?: RequestInit) =>
    new Promise<Response>((_resolve, reject) => {
      init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
    })) as typeof globalThis.fetch;
  const history = new BridgeSessionHistory({ baseUrl: "http://bridge.test", fetch });
  const controller = new AbortController();
  const pending = history.list({ signal: controller.signal });
  const reason = new Error("user left");
  controller.abort(reason);
  const error = await rejection(pending);
  assert.equal(error.code, "cancelled");
  assert.equal(error.cause, reason);
});

test("a forked conversation's files come with it; a malformed one is a bad response", async () => {
  const { createdAt, lastActivity, messageCount } = summary;
  const version = { createdAt, lastActivity, messageCount };
  const forked: SessionSummary = {
    ...summary,
    title: "Fix the parser (fork)",
    forks: [
      { ...version, file: "a.jsonl", title: "Fix the parser", current: false },
      {
        ...version,
        file: "b.jsonl",
        title: "Fix the parser (fork)",
        current: true,
        forkedFrom: "a.jsonl",
      },
    ],
  };
  const history = new BridgeSessionHistory({
    baseUrl: "http://bridge.test",
    fetch: fakeFetch(() => json({ sessions: [forked], nextCursor: null })).fetch,
  });
  assert.deepEqual((await history.list()).sessions, [forked]);

  const bad = [{ file: "a.jsonl" }, "a.jsonl", { ...forked.forks?.[0], current: "yes" }];
  for (const fork of [...bad.map((f) => [f]), "a.jsonl"]) {
    const odd = new BridgeSessionHistory({
      baseUrl: "http://bridge.test",
      fetch: fakeFetch(() => json({ session: { ...summary, forks: fork } })).fetch,
    });
    assert.equal((await rejection(odd.get("alpha"))).code, "bad_response");
  }
});
