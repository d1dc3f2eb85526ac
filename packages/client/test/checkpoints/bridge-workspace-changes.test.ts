/**
 * BridgeWorkspaceChanges against a fake fetch: the requests it makes (URL, method, headers, body),
 * the answers it accepts, and the typed errors it rejects with. Its run against a real bridge is
 * in the bridge's tests.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  BridgeWorkspaceChanges,
  type ChangeSet,
  type CheckpointSummary,
  SessionHistoryError,
} from "../../src/index.ts";

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal | undefined;
}

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
      signal: init?.signal ?? undefined,
    };
    calls.push(call);
    return answer(call);
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

const start: CheckpointSummary = { id: "a".repeat(40), label: "session start", createdAt: 1 };
const run: CheckpointSummary = { id: "b".repeat(40), label: "Fix the parser", createdAt: 2 };
const set: ChangeSet = {
  since: start.id,
  changes: [
    {
      path: "b.txt",
      oldPath: "a.txt",
      status: "renamed",
      additions: 0,
      deletions: 0,
      binary: false,
    },
    { path: "logo.png", status: "added", additions: 0, deletions: 0, binary: true },
  ],
  skipped: ["huge.bin"],
};

async function rejection(promise: Promise<unknown>): Promise<SessionHistoryError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof SessionHistoryError, `not a SessionHistoryError: ${error}`);
    return error;
  }
  assert.fail("expected a rejection");
}

test("reads: checkpoints, changes and a diff, with the session and queries in the URL", async () => {
  const { fetch, calls } = fakeFetch((call) => {
    if (call.url.includes("/checkpoints")) return json({ checkpoints: [start, run] });
    if (call.url.includes("/changes/diff"))
      return json({ path: "b.txt", since: run.id, diff: "@@" });
    return json(set);
  });
  const changes = new BridgeWorkspaceChanges({
    baseUrl: "http://bridge.test/",
    session: "my session",
    token: "t0k",
    fetch,
    connectionId: () => 7,
  });
  assert.deepEqual(await changes.checkpoints(), [start, run]);
  assert.equal(calls[0]?.url, "http://bridge.test/api/sessions/my%20session/checkpoints");
  assert.equal(calls[0]?.method, "GET");
  assert.equal(calls[0]?.headers.authorization, "Bearer t0k");
  assert.equal(calls[0]?.headers["X-Pi-Kit-Connection"], undefined, "reads name no connection");

  assert.deepEqual(await changes.changes(), set);
  assert.equal(calls[1]?.url, "http://bridge.test/api/sessions/my%20session/changes");
  await changes.changes(run.id);
  assert.equal(
    calls[2]?.url,
    `http://bridge.test/api/sessions/my%20session/changes?since=${run.id}`,
  );

  assert.deepEqual(await changes.diff("dir/a b.txt", run.id), {
    path: "b.txt",
    since: run.id,
    diff: "@@",
  });
  assert.equal(
    calls[3]?.url,
    `http://bridge.test/api/sessions/my%20session/changes/diff?path=dir%2Fa+b.txt&since=${run.id}`,
  );
});

test("writes: revert and restore are POSTs that name the controlling connection", async () => {
  let id: number | undefined = 3;
  const { fetch, calls } = fakeFetch(() => json(set));
  const changes = new BridgeWorkspaceChanges({
    baseUrl: "/pi",
    session: "alpha",
    fetch,
    connectionId: () => id,
  });
  assert.deepEqual(await changes.revertFile("a.txt"), set);
  assert.deepEqual(calls[0], {
    url: "/pi/api/sessions/alpha/changes/revert",
    method: "POST",
    headers: {
      accept: "application/json",
      "content-type": "application/json",
      "X-Pi-Kit-Connection": "3",
    },
    body: { path: "a.txt" },
    signal: undefined,
  });
  await changes.revertFile("a.txt", run.id);
  assert.deepEqual(calls[1]?.body, { path: "a.txt", since: run.id });

  id = undefined;
  await changes.restore(run.id);
  assert.equal(calls[2]?.url, `/pi/api/sessions/alpha/checkpoints/${run.id}/restore`);
  assert.equal(calls[2]?.method, "POST");
  assert.equal(calls[2]?.body, undefined);
  assert.equal(calls[2]?.headers["X-Pi-Kit-Connection"], undefined, "not connected: no header");
});

test("refusals map to typed errors with the bridge's own code", async () => {
  const cases: Array<[number, string, string]> = [
    [403, "not_controller", "forbidden"],
    [409, "run_in_progress", "conflict"],
    [404, "unknown_checkpoint", "not_found"],
    [400, "invalid_path", "invalid_request"],
  ];
  for (const [status, hostCode, code] of cases) {
    const { fetch } = fakeFetch(() =>
      json({ error: `refused: ${hostCode}`, code: hostCode }, status),
    );
    const changes = new BridgeWorkspaceChanges({ baseUrl: "http://b", session: "s", fetch });
    const error = await rejection(changes.restore("x"));
    assert.equal(error.code, code);
    assert.equal(error.status, status);
    assert.equal(error.hostCode, hostCode);
    assert.equal(error.message, `refused: ${hostCode}`);
  }
});

test("answers that are not the API's shapes are bad_response", async () => {
  const bodies: Array<[string, unknown]> = [
    ["checkpoints", { checkpoints: [{ id: 1, label: "x", createdAt: 1 }] }],
    ["changes", { since: "a", changes: [{ path: "x", status: "copied" }], skipped: [] }],
    ["changes", { since: "a", changes: [], skipped: "no" }],
    ["diff", { path: "x", since: "a" }],
  ];
  for (const [call, body] of bodies) {
    const { fetch } = fakeFetch(() => json(body));
    const changes = new BridgeWorkspaceChanges({ baseUrl: "http://b", session: "s", fetch });
    const promise =
      call === "checkpoints"
        ? changes.checkpoints()
        : call === "diff"
          ? changes.diff("x")
          : changes.changes();
    assert.equal((await rejection(promise)).code, "bad_response", JSON.stringify(body));
  }
});

test("a fired signal rejects with cancelled; an unreachable bridge with network", async () => {
  const controller = new AbortController();
  const { fetch, calls } = fakeFetch(
    (call) =>
      new Promise<Response>((_resolve, reject) => {
        call.signal?.addEventListener("abort", () => reject(call.signal?.reason));
      }),
  );
  const changes = new BridgeWorkspaceChanges({ baseUrl: "http://b", session: "s", fetch });
  const pending = changes.changes(undefined, { signal: controller.signal });
  controller.abort(new Error("closed the panel"));
  assert.equal((await rejection(pending)).code, "cancelled");
  assert.equal(calls[0]?.signal, controller.signal);

  const down = new BridgeWorkspaceChanges({
    baseUrl: "http://b",
    session: "s",
    fetch: () => Promise.reject(new TypeError("fetch failed")),
  });
  assert.equal((await rejection(down.checkpoints())).code, "network");
});
