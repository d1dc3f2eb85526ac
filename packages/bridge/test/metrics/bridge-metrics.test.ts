/**
 * The bridge's Prometheus metrics, read back by parsing the text exposition: labelled counters,
 * gauges read from the live state at scrape time, cumulative histogram buckets, and one registry
 * per bridge.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createBridgeMetrics } from "../../src/metrics/bridge-metrics.ts";

/** One sample line: `name{a="b",…} value`. */
interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** Parses the Prometheus text format: samples, and each metric's `# TYPE`. */
function parse(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split("\n")) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1] as string, type[2] as string);
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(match, `a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (match[2] ?? "").matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[k as string] = v as string;
    }
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return { samples, types };
}

/** The value of the one sample named `name` with exactly these labels (undefined if absent). */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}) {
  const key = (l: Readonly<Record<string, string>>) => JSON.stringify(Object.entries(l).sort());
  const found = samples.filter((s) => s.name === name && key(s.labels) === key(labels));
  assert.ok(found.length <= 1, `one sample ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

test("metrics: counters by label, and their types, in the text format", async () => {
  const metrics = createBridgeMetrics({ processMetrics: false });
  metrics.leasesAcquired.inc({ how: "free" });
  metrics.leasesAcquired.inc({ how: "takeover" });
  metrics.leasesAcquired.inc({ how: "takeover" });
  metrics.leasesLost.inc({ reason: "expired" });
  metrics.forwards.inc({ kind: "websocket", outcome: "ok" });
  metrics.refusals.inc({ code: "TOO_MANY_SESSIONS" });
  metrics.piExits.inc({ reason: "fenced" });
  const { samples, types } = parse(await metrics.text());
  assert.equal(value(samples, "pikit_leases_acquired_total", { how: "free" }), 1);
  assert.equal(value(samples, "pikit_leases_acquired_total", { how: "takeover" }), 2);
  assert.equal(value(samples, "pikit_leases_lost_total", { reason: "expired" }), 1);
  assert.equal(value(samples, "pikit_forwards_total", { kind: "websocket", outcome: "ok" }), 1);
  assert.equal(value(samples, "pikit_refusals_total", { code: "TOO_MANY_SESSIONS" }), 1);
  assert.equal(value(samples, "pikit_pi_exits_total", { reason: "fenced" }), 1);
  assert.equal(types.get("pikit_leases_acquired_total"), "counter");
  assert.equal(types.get("pikit_sessions"), "gauge");
  assert.equal(types.get("pikit_relay_seconds"), "histogram");
  assert.equal(types.get("pikit_failover_seconds"), "histogram");
  assert.match(metrics.contentType, /^text\/plain; version=0\.0\.4/);
  assert.equal(
    samples.some((s) => s.name.includes("process_")),
    false,
    "no process metrics when off",
  );
});

test("metrics: sessions by state, leases held and the store's health are read at each scrape", async () => {
  let states: Record<string, number> = { running: 2, idle: 5 };
  let held = 7;
  let up = true;
  const metrics = createBridgeMetrics({
    processMetrics: false,
    sessionStates: () => states,
    leasesHeld: () => held,
    leaseStoreUp: () => up,
  });
  let { samples } = parse(await metrics.text());
  assert.equal(value(samples, "pikit_sessions", { state: "running" }), 2);
  assert.equal(value(samples, "pikit_sessions", { state: "idle" }), 5);
  assert.equal(value(samples, "pikit_leases_held"), 7);
  assert.equal(value(samples, "pikit_lease_store_up"), 1);
  states = { idle: 1 };
  held = 1;
  up = false;
  ({ samples } = parse(await metrics.text()));
  assert.equal(value(samples, "pikit_sessions", { state: "running" }), undefined, "a state gone");
  assert.equal(value(samples, "pikit_sessions", { state: "idle" }), 1);
  assert.equal(value(samples, "pikit_leases_held"), 1);
  assert.equal(value(samples, "pikit_lease_store_up"), 0);
});

test("metrics: histograms have cumulative buckets, a sum and a count", async () => {
  const metrics = createBridgeMetrics({ processMetrics: false });
  for (const s of [0.0002, 0.0002, 0.003, 0.2]) metrics.relaySeconds.observe(s);
  metrics.failoverSeconds.observe({ how: "takeover" }, 11.5);
  const { samples } = parse(await metrics.text());
  const bucket = (le: string) => value(samples, "pikit_relay_seconds_bucket", { le });
  assert.equal(bucket("0.0001"), 0);
  assert.equal(bucket("0.00025"), 2);
  assert.equal(bucket("0.005"), 3);
  assert.equal(bucket("0.1"), 3);
  assert.equal(bucket("+Inf"), 4);
  assert.equal(value(samples, "pikit_relay_seconds_count"), 4);
  assert.ok(Math.abs((value(samples, "pikit_relay_seconds_sum") ?? 0) - 0.2034) < 1e-9);
  assert.equal(value(samples, "pikit_failover_seconds_bucket", { le: "10", how: "takeover" }), 0);
  assert.equal(value(samples, "pikit_failover_seconds_bucket", { le: "13", how: "takeover" }), 1);
  assert.equal(value(samples, "pikit_failover_seconds_count", { how: "takeover" }), 1);
});

test("metrics: two bridges' registries are separate, and process metrics carry the prefix", async () => {
  const one = createBridgeMetrics({ prefix: "one_" });
  const two = createBridgeMetrics({ prefix: "one_", processMetrics: false });
  one.refusals.inc({ code: "X" });
  const first = parse(await one.text()).samples;
  const second = parse(await two.text()).samples;
  assert.equal(value(first, "one_refusals_total", { code: "X" }), 1);
  assert.equal(value(second, "one_refusals_total", { code: "X" }), undefined);
  assert.ok((value(first, "one_process_resident_memory_bytes") ?? 0) > 0, "memory is reported");
});
