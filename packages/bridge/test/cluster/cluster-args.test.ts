/** The CLI's cluster flags: parsed into `cluster`, checked before anything starts. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { UsageError } from "../../src/cli/parse-args.ts";
import { parseArgs } from "../../src/cli.ts";
import { defaultIndexDir } from "../../src/security/sessions-dir.ts";

const pi = ["--", "pi", "--mode", "rpc"];

test("cluster args: --cluster and its options become BridgeOptions.cluster", () => {
  const { serve } = parseArgs(
    [
      "--cluster",
      "redis://10.0.0.5:6379",
      "--node-url",
      "http://10.0.0.11:8787",
      "--lease-ttl-ms",
      "5000",
      "--drain-timeout-ms",
      "20000",
      "--index-dir",
      "/var/cache/pi-kit/index",
      ...pi,
    ],
    {},
  );
  assert.deepEqual(serve.cluster, {
    redisUrl: "redis://10.0.0.5:6379",
    nodeUrl: "http://10.0.0.11:8787",
    leaseTtlMs: 5000,
    drainTimeoutMs: 20000,
    indexDir: "/var/cache/pi-kit/index",
  });
  assert.equal(parseArgs([...pi], {}).serve.cluster, undefined, "off by default");
});

test("cluster args: mistakes are usage errors", () => {
  const cases: [string[], RegExp][] = [
    [["--node-url", "http://a:1"], /need --cluster/],
    [["--cluster", "http://redis:6379"], /Redis URL, redis:\/\/.*rediss:\/\//],
    [["--cluster", "redis://r", "--node-url", "ws://a"], /http:\/\/ or https:\/\//],
    [["--cluster", "redis://r", "--lease-ttl-ms", "10"], /at least 300/],
    [["--cluster", "not a url"], /needs a Redis URL/],
  ];
  for (const [args, message] of cases)
    assert.throws(
      () => parseArgs([...args, ...pi], {}),
      (e: unknown) => e instanceof UsageError && message.test(e.message),
      args.join(" "),
    );
});

test("cluster args: the default index cache is per node and off the shared sessions directory", () => {
  const env = { XDG_STATE_HOME: "/home/u/.local/state" };
  const a = defaultIndexDir("http://10.0.0.11:8787", "/srv/share/sessions", env);
  const b = defaultIndexDir("http://10.0.0.12:8787", "/srv/share/sessions", env);
  assert.notEqual(a, b);
  assert.ok(a.startsWith("/home/u/.local/state/pi-kit/bridge/index/"), a);
  assert.ok(!a.startsWith("/srv/share/sessions"));
});
