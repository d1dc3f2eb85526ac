import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { startBridge } from "../helpers.ts";

/** GETs a path without any token; returns the status and the body. */
async function probe(url: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}${path}`, { headers });
  return {
    status: response.status,
    body: (await response.json()) as unknown,
    cache: response.headers.get("cache-control"),
    cors: response.headers.get("access-control-allow-origin"),
  };
}

test("health: /healthz and /readyz answer without a token, and nothing but a status", async () => {
  const bridge = await startBridge({ origins: ["http://localhost:5173"] });
  try {
    // A page on another site learns no more than a load balancer does.
    const foreign = { origin: "https://evil.example" };
    assert.deepEqual(await probe(bridge.url, "/healthz", foreign), {
      status: 200,
      body: { status: "ok" },
      cache: "no-store",
      cors: null,
    });
    assert.deepEqual(await probe(bridge.url, "/readyz"), {
      status: 200,
      body: { status: "ready" },
      cache: "no-store",
      cors: null,
    });
    // Everything else still needs the token.
    assert.equal((await probe(bridge.url, "/api/sessions")).status, 401);

    // The sessions directory stops taking entries (a file in its place: even root cannot write).
    rmSync(bridge.sessionsDir, { recursive: true });
    writeFileSync(bridge.sessionsDir, "");
    assert.deepEqual((await probe(bridge.url, "/readyz")).body, { status: "not_ready" });
    assert.equal((await probe(bridge.url, "/readyz")).status, 503);
    rmSync(bridge.sessionsDir);
    mkdirSync(bridge.sessionsDir, { mode: 0o700 });
    assert.equal((await probe(bridge.url, "/readyz")).status, 200);
    // Why is logged, once per change; the response never says.
    const changes = bridge.log.flatMap((e) =>
      e.event === "readiness_lost" || e.event === "readiness_restored" ? [e] : [],
    );
    assert.equal(changes.length, 2);
    assert.match(JSON.stringify(changes[0]), /"problem":"sessions_dir: .*ENOTDIR/);
    assert.equal(changes[1]?.event, "readiness_restored");

    // A closing bridge is not ready, so a load balancer drains it.
    const closing = bridge.bridge.close();
    assert.equal((await probe(bridge.url, "/readyz")).status, 503);
    assert.equal((await probe(bridge.url, "/healthz")).status, 200);
    await closing;
  } finally {
    await bridge.dispose();
  }
});

test("health: /readyz fails while pi cannot be spawned", async () => {
  const missing = await startBridge({ pi: { command: "no-such-pi-command-here", args: [] } });
  const notFile = await startBridge({ pi: { command: "/", args: [] } });
  try {
    for (const bridge of [missing, notFile]) {
      assert.deepEqual(await probe(bridge.url, "/readyz"), {
        status: 503,
        body: { status: "not_ready" },
        cache: "no-store",
        cors: null,
      });
    }
    assert.ok(
      missing.log.some(
        (e) => e.event === "readiness_lost" && /^spawn: .* not on PATH/.test(e.problem),
      ),
    );
    assert.ok(
      notFile.log.some(
        (e) => e.event === "readiness_lost" && /^spawn: .* not an executable/.test(e.problem),
      ),
    );
  } finally {
    await Promise.all([missing.dispose(), notFile.dispose()]);
  }
});
