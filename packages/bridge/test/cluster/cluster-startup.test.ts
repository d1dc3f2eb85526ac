/**
 * A cluster node's start: malformed cluster settings are one line naming the option and what it
 * expects (the CLI's flags and `createBridge`'s options alike), and an unreachable Redis is logged
 * once at warn with its URL (password hidden) and the cause, while the node answers 503 until
 * Redis does.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { UsageError } from "../../src/cli/parse-args.ts";
import { parseArgs } from "../../src/cli.ts";
import { BridgeError, BridgeErrorCode, createBridge, generateToken } from "../../src/index.ts";
import { type BridgeLogEvent, logLevel } from "../../src/logging/logger.ts";
import { startBridge, until } from "../helpers.ts";
import { freePort } from "./redis-server.ts";

const pi = ["--", "pi", "--mode", "rpc"];
const temps: string[] = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "pi-kit-cluster-start-"));
  temps.push(dir);
  return dir;
}

test("cluster start: each malformed --cluster, --node-url and lease flag is one line naming the flag and what it expects", () => {
  const cases: [string[], RegExp][] = [
    [["--cluster", "redis:/127.0.0.1:6379"], /^--cluster needs a Redis URL, redis:\/\/.*no host/],
    [["--cluster", "redis://10.0.0.5:6379/zero"], /^--cluster needs a Redis URL.*db number/],
    [["--cluster", "http://10.0.0.5:6379"], /^--cluster needs a Redis URL, redis:\/\//],
    [["--cluster", "10.0.0.5:6379"], /^--cluster needs a Redis URL/],
    [["--cluster", "redis://r:1", "--node-url", "10.0.0.11:8787"], /^--node-url needs an http/],
    [["--cluster", "redis://r:1", "--node-url", "http://a:1/base"], /^--node-url needs .*no path/],
    [["--cluster", "redis://r:1", "--lease-ttl-ms", "10"], /^--lease-ttl-ms needs at least 300/],
    [["--cluster", "redis://r:1", "--lease-ttl-ms", "3s"], /^--lease-ttl-ms needs a whole number/],
    [["--cluster", "redis://r:1", "--drain-timeout-ms", "-1"], /^--drain-timeout-ms needs a whole/],
  ];
  for (const [args, message] of cases)
    assert.throws(
      () => parseArgs([...args, ...pi], {}),
      (e: unknown) =>
        e instanceof UsageError && message.test(e.message) && !e.message.includes("\n"),
      args.join(" "),
    );
  assert.throws(
    () => parseArgs(["--cluster", "redis://u:s3cret@/0", ...pi], {}),
    (e: unknown) =>
      e instanceof UsageError && !e.message.includes("s3cret") && e.message.includes("***"),
    "a password is never printed",
  );
  for (const good of [
    "redis://10.0.0.5",
    "rediss://u:p@redis.internal:6380/2",
    "redis://[::1]:6379",
  ])
    assert.equal(parseArgs(["--cluster", good, ...pi], {}).serve.cluster?.redisUrl, good);
});

test("cluster start: createBridge refuses malformed cluster options with InvalidOptions naming the option", () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ redisUrl: "redis:/127.0.0.1:6379" }, /^cluster\.redisUrl needs a Redis URL/],
    [{ redisUrl: "redis://r:1", nodeUrl: "ftp://a" }, /^cluster\.nodeUrl needs an http/],
    [
      { redisUrl: "redis://r:1", leaseTtlMs: 299 },
      /^cluster\.leaseTtlMs needs a whole number of ms, at least 300/,
    ],
    [{ redisUrl: "redis://r:1", drainTimeoutMs: 1.5 }, /^cluster\.drainTimeoutMs needs a whole/],
  ];
  for (const [cluster, message] of cases)
    assert.throws(
      () =>
        createBridge(
          {
            pi: { command: "pi", args: ["--mode", "rpc"] },
            token: generateToken(),
            sessionsDir: tempDir(),
            url: "http://127.0.0.1:1",
            cluster: cluster as { redisUrl: string },
          },
          { upgrade: () => new Response(null, { status: 500 }) } as never,
        ),
      (e: unknown) =>
        e instanceof BridgeError &&
        e.code === BridgeErrorCode.InvalidOptions &&
        message.test(e.message),
      JSON.stringify(cluster),
    );
});

test("cluster start: an unreachable Redis is logged once at warn with its URL, password hidden, and the cause; the node answers 503 meanwhile", async () => {
  const port = await freePort();
  const bridge = await startBridge({
    sessionsDir: tempDir(),
    cluster: {
      redisUrl: `redis://pikit:s3cret@127.0.0.1:${port}`,
      leaseTtlMs: 1500,
      indexDir: tempDir(),
    },
  });
  try {
    const logged = (): BridgeLogEvent[] =>
      bridge.log.filter((e) => e.event === "lease_store_unreachable");
    await until(() => logged().length > 0);
    const [entry] = logged() as Extract<BridgeLogEvent, { event: "lease_store_unreachable" }>[];
    assert.equal(logLevel("lease_store_unreachable"), "warn");
    assert.equal(entry?.url, `redis://pikit:***@127.0.0.1:${port}`);
    assert.match(entry?.error ?? "", /ECONNREFUSED/);
    assert.ok(!JSON.stringify(bridge.log).includes("s3cret"), "the password is never logged");
    const ready = await fetch(`${bridge.url}/readyz`);
    await ready.body?.cancel();
    assert.equal(ready.status, 503);
    const api = await fetch(`${bridge.url}/api/sessions`, {
      method: "POST",
      headers: { authorization: `Bearer ${bridge.token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "main" }),
    });
    assert.equal(api.status, 503, "a claim is refused, to retry, not hung");
    assert.equal(api.headers.get("retry-after"), "1");
    await api.body?.cancel();
    // node-redis has retried several times by now: still one line for the one outage.
    assert.equal(logged().length, 1);
  } finally {
    await bridge.dispose();
  }
});
