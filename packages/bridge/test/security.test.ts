import assert from "node:assert/strict";
import { test } from "node:test";
import {
  BridgeCloseCode,
  closeReason,
  createCommandPolicy,
  createOriginCheck,
  DENIED_PREFIX,
  generateToken,
  TokenBucket,
  tokensEqual,
} from "../src/index.ts";
import { auth, connect, rawUpgrade, sleep, startBridge } from "./helpers.ts";

test("token: generated tokens are 256-bit base64url and compare in constant time", () => {
  const a = generateToken();
  assert.match(a, /^[A-Za-z0-9_-]{43}$/);
  assert.notEqual(a, generateToken());
  assert.ok(tokensEqual(a, a));
  assert.ok(!tokensEqual(`${a}x`, a));
  assert.ok(!tokensEqual(a.slice(0, -1), a));
  assert.ok(!tokensEqual("", a));
});

test("origin: requests without Origin pass; browser origins must be listed", () => {
  const check = createOriginCheck(["http://localhost:5173"]);
  assert.ok(check(null));
  assert.ok(check("http://LOCALHOST:5173/"));
  assert.ok(!check("https://evil.example"));
  assert.ok(!check("null"));
  assert.ok(createOriginCheck(["*"])("https://any.example"));
});

test("rate limit: a token bucket allows the burst, then the rate", () => {
  let now = 0;
  const bucket = new TokenBucket(10, 3, () => now);
  assert.deepEqual(
    [bucket.take(), bucket.take(), bucket.take(), bucket.take()],
    [true, true, true, false],
  );
  now += 100;
  assert.equal(bucket.take(), true);
  assert.equal(bucket.take(), false);
});

test("close reasons fit in 123 bytes, keeping the end of the stderr tail", () => {
  const reason = closeReason(
    { reason: "exit", exitCode: 1, signal: null },
    `${"x".repeat(500)}END`,
  );
  assert.ok(new TextEncoder().encode(reason).length <= 123);
  const parsed = JSON.parse(reason) as { stderrTail: string; exitCode: number };
  assert.equal(parsed.exitCode, 1);
  assert.match(parsed.stderrTail, /END$/);
});

test("policy: refuses junk, null, invalid and denied commands; confines paths", () => {
  const policy = createCommandPolicy({ deny: ["bash"] });
  const dir = "/srv/sessions/a";
  const refused = (text: string): Record<string, unknown> => {
    const decision = policy(text, dir);
    assert.equal(decision.ok, false, text);
    return JSON.parse((decision as { response: string }).response) as Record<string, unknown>;
  };
  assert.equal(refused("null").command, "parse");
  assert.equal(refused("[1]").command, "parse");
  assert.equal(refused("{oops").command, "parse");
  assert.deepEqual(refused('{"type":"bash","id":7,"command":"ls"}'), {
    type: "response",
    id: 7,
    command: "bash",
    success: false,
    error: `${DENIED_PREFIX}\`bash\` is not allowed on this bridge`,
  });
  // pi would run the shell command "undefined" for this; the policy refuses it as invalid.
  assert.match(
    String(refused('{"type":"set_steering_mode","id":"m","mode":"bogus"}').error),
    /mode/,
  );
  assert.match(
    String(refused('{"type":"switch_session","id":"s","sessionPath":"../b/x.jsonl"}').error),
    /inside the session directory/,
  );
  assert.match(
    String(refused('{"type":"export_html","id":"e","outputPath":"/etc/x.html"}').error),
    /inside the session directory/,
  );
  const inside = policy('{"type":"switch_session","id":"s","sessionPath":"old.jsonl"}', dir);
  assert.ok(inside.ok);
  assert.equal(JSON.parse(inside.line).sessionPath, "/srv/sessions/a/old.jsonl");
  const exported = policy('{"type":"export_html","id":"e"}', dir);
  assert.ok(exported.ok);
  assert.match(JSON.parse(exported.line).outputPath, /^\/srv\/sessions\/a\/export-.*\.html$/);
  const answer = policy('{"type":"extension_ui_response","id":"d1","confirmed":true}', dir);
  assert.ok(answer.ok && answer.uiResponseId === "d1");
  // A record with an LF as JSON whitespace is re-encoded onto one line.
  const spaced = policy('{"type":"get_state",\n"id":"g"}', dir);
  assert.ok(spaced.ok && !spaced.line.includes("\n"));
  assert.throws(() => createCommandPolicy({ deny: ["rm_rf"] }), /Unknown command type/);
});

test("bridge: refusals carry a clear HTTP status, or for a pi-kit client a close code", async () => {
  const bridge = await startBridge({
    origins: ["http://localhost:5173"],
    autoCreate: false,
    limits: { maxSessions: 1 },
  });
  try {
    const path = "/sessions/a/ws";
    const v1 = { "Sec-WebSocket-Protocol": `pi-kit.v1, pi-kit.token.${bridge.token}` };
    const bearer = { Authorization: `Bearer ${bridge.token}` };
    // Without pi-kit.v1 on offer: the HTTP status, before any upgrade.
    assert.equal((await rawUpgrade(bridge, path, {})).status, 401, "no token");
    assert.equal(
      (await rawUpgrade(bridge, path, { Authorization: "Bearer wrongwrongwrongwrong" })).status,
      401,
      "wrong token",
    );
    assert.equal(
      (await rawUpgrade(bridge, path, { ...bearer, Origin: "https://evil.example" })).status,
      403,
      "foreign origin",
    );
    assert.equal(
      (await rawUpgrade(bridge, path, { "Sec-WebSocket-Protocol": `pi-kit.token.${bridge.token}` }))
        .status,
      400,
      "token without pi-kit.v1",
    );
    assert.equal((await rawUpgrade(bridge, path, bearer)).status, 404, "unknown session");
    // A pi-kit client may be a browser, which cannot read a status: the upgrade, then a close code.
    const refusals: Array<[Record<string, string>, number, string]> = [
      [{ "Sec-WebSocket-Protocol": "pi-kit.v1" }, 4401, "no token"],
      [{ "Sec-WebSocket-Protocol": "pi-kit.v1, pi-kit.token.wrongwrongwrongwrong" }, 4401, "wrong"],
      [{ ...v1, Origin: "https://evil.example" }, 4403, "foreign origin"],
      [v1, 4404, "unknown session"],
    ];
    for (const [headers, code, what] of refusals) {
      const refused = await rawUpgrade(bridge, path, headers);
      assert.equal(refused.status, 101, what);
      assert.match(refused.head, /sec-websocket-protocol: pi-kit\.v1\r?$/im, what);
      assert.equal(refused.closeCode, code, what);
    }
    const http = await fetch(`${bridge.url}/api/sessions`);
    assert.equal(http.status, 401);
    await http.body?.cancel();

    const created = await fetch(`${bridge.url}/api/sessions`, {
      method: "POST",
      headers: { ...auth(bridge), "content-type": "application/json" },
      body: JSON.stringify({ name: "a" }),
    });
    assert.equal(created.status, 201);
    await created.body?.cancel();
    const full = await fetch(`${bridge.url}/api/sessions`, {
      method: "POST",
      headers: { ...auth(bridge), "content-type": "application/json" },
      body: JSON.stringify({ name: "b" }),
    });
    assert.equal(full.status, 503, "too many sessions");
    assert.match(((await full.json()) as { error: string }).error, /at most 1 sessions/);

    // The allowed origin, with the token as a subprotocol entry: accepted, only pi-kit.v1 echoed.
    const ok = await rawUpgrade(bridge, path, { ...v1, Origin: "http://localhost:5173" });
    assert.equal(ok.status, 101);
    assert.match(ok.head, /sec-websocket-protocol: pi-kit\.v1\r?$/im);
    assert.doesNotMatch(ok.head, new RegExp(bridge.token));
    const rejected = bridge.log.filter((e) => e.event === "connection_rejected");
    assert.ok(rejected.length >= 5);
    assert.ok(!JSON.stringify(bridge.log).includes(bridge.token), "the token is never logged");
  } finally {
    await bridge.dispose();
  }
});

test("bridge: oversized record closes 1009, denied command fails cleanly, flood closes 1008", async () => {
  const bridge = await startBridge({
    policy: { deny: ["bash"] },
    limits: { maxRecordBytes: 4096, messagesPerSecond: 5, messageBurst: 20 },
  });
  try {
    const client = await connect(bridge, "limits");
    assert.equal(client.protocol, "pi-kit.v1");
    const denied = await client.request({ type: "bash", command: "echo hi" });
    assert.equal(denied.success, false);
    assert.equal(denied.command, "bash");
    assert.match(String(denied.error), /^Denied by bridge policy: `bash` is not allowed/);
    const outside = await client.request({ type: "switch_session", sessionPath: "/etc/passwd" });
    assert.match(String(outside.error), /inside the session directory/);
    const nul = client.records.length;
    client.send("null");
    const parse = await client.waitFor((r) => r.command === "parse", 5000, nul);
    assert.equal(parse.success, false);
    // pi survived the null (it never saw it) and still answers.
    const state = await client.request({ type: "get_state" }, 20_000);
    assert.equal(state.success, true);

    client.send({ type: "prompt", message: "x".repeat(5000) });
    const closed = await client.closed;
    assert.equal(closed.code, BridgeCloseCode.MessageTooBig);

    const flood = await connect(bridge, "limits");
    // Paced by a timer rather than in one go: Deno's server aborts (1006) instead of closing
    // cleanly when data frames keep arriving after its close frame.
    let open = true;
    void flood.closed.then(() => (open = false));
    for (let i = 0; i < 60 && open; i++) {
      flood.send({ type: "get_state", id: `f${i}` });
      await sleep(2);
    }
    const floodClosed = await flood.closed;
    assert.equal(floodClosed.code, BridgeCloseCode.PolicyViolation);
    assert.match(floodClosed.reason, /rate_limit/);
  } finally {
    await bridge.dispose();
  }
});
