import assert from "node:assert/strict";
import { test } from "node:test";
import { BridgeCloseCode, closeReason } from "@pi-kit/protocol/bridge";
import { generateToken } from "../../src/index.ts";
import { createCommandPolicy, DENIED_PREFIX } from "../../src/security/command-policy.ts";
import { createOriginCheck } from "../../src/security/origin.ts";
import { TokenBucket } from "../../src/security/rate-limit.ts";
import { tokensEqual } from "../../src/security/token.ts";
import { auth, connect, rawUpgrade, startBridge } from "../helpers.ts";

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
    [bucket.tryConsume(), bucket.tryConsume(), bucket.tryConsume(), bucket.tryConsume()],
    [true, true, true, false],
  );
  now += 100;
  assert.equal(bucket.tryConsume(), true);
  assert.equal(bucket.tryConsume(), false);
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

test("logs: a record type appears as a short escaped prefix, a field value never", async () => {
  const bridge = await startBridge();
  try {
    const client = await connect(bridge, "logs");
    const secret = "SECRET-VALUE-0451";
    const huge = `evil${"x".repeat(200_000)}`;
    const unknown = await client.request({ type: huge });
    assert.equal(unknown.success, false);
    assert.equal(unknown.command, `evil${"x".repeat(28)}…`, "nor echoed in full");
    await client.request({ type: "\u001b[31mred\nnext" });
    await client.request({ type: "set_steering_mode", mode: secret });
    await client.request({ type: "switch_session", sessionPath: `/etc/${secret}` });
    client.send({ type: "extension_ui_response", id: 7, value: secret });
    await client.waitFor((r) => r.command === "extension_ui_response");
    const path = `/sessions/${"n".repeat(5000)}/ws`;
    const bearer = { Authorization: `Bearer ${bridge.token}` };
    const origin = { Origin: `https://${"o".repeat(5000)}.example` };
    assert.equal((await rawUpgrade(bridge, path, { ...bearer, ...origin })).status, 403);
    assert.equal((await rawUpgrade(bridge, path, bearer)).status, 400);
    const denied = bridge.log.flatMap((e) =>
      e.event === "command_denied" ? [[e.command, e.reason]] : [],
    );
    assert.deepEqual(denied, [
      [`evil${"x".repeat(28)}…`, "unknown record type"],
      ["\\u001b[31mred\\u000anext", "unknown record type"],
      ["set_steering_mode", "invalid `set_steering_mode.mode`"],
      ["switch_session", "`switch_session.sessionPath` must stay inside the session directory"],
      ["extension_ui_response", "invalid `id`"],
    ]);
    const rejected = bridge.log.flatMap((e) =>
      e.event === "connection_rejected" ? [[e.status, e.session, e.origin]] : [],
    );
    assert.deepEqual(rejected, [
      [403, undefined, `https://${"o".repeat(92)}…`],
      [400, `${"n".repeat(64)}…`, null],
    ]);
    const lines = bridge.log.map((e) => JSON.stringify(e));
    assert.ok(!lines.join("\n").includes(secret), "no field value is logged");
    assert.ok(Math.max(...lines.map((l) => l.length)) < 400, "every entry stays short");
    await client.close();
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
    // Every runtime says why, as the README documents (ws on Node closes on its own).
    assert.deepEqual(
      [closed.code, JSON.parse(closed.reason || "null")],
      [BridgeCloseCode.MessageTooBig, { reason: "too_big", max: 4096 }],
    );

    const flood = await connect(bridge, "limits");
    // The burst at once, then one message per answer: the bridge's close frame never has data
    // frames behind it, which Deno's server answers by aborting (1006) instead of closing
    // cleanly. Answers come faster than the bucket refills (5 a second), so it runs dry.
    const answered = (): Promise<boolean> =>
      flood.request({ type: "get_state" }).then(
        () => true,
        () => false,
      );
    await Promise.all(Array.from({ length: 20 }, answered));
    for (let i = 0; i < 200 && (await answered()); i++) {
      // Until the bucket is empty and the bridge closes the socket.
    }
    const floodClosed = await flood.closed;
    assert.equal(floodClosed.code, BridgeCloseCode.PolicyViolation);
    assert.match(floodClosed.reason, /rate_limit/);
  } finally {
    await bridge.dispose();
  }
});
