/**
 * Bridge benchmark: the latency the bridge adds per event (the same pi stream timed as it leaves
 * pi's stdout and as it arrives over the WebSocket, in one run), the throughput through the
 * bridge against direct stdio, and the bridge's memory per idle and per streaming session.
 *
 * The WebSocket clients run on a worker thread (`client-worker.ts`), as a browser runs apart from
 * the server: the bridge's event loop carries only the bridge (and the scripted model), and the
 * client's reading and stamping neither delays the bridge nor is delayed by it. Both sides stamp
 * with `performance.timeOrigin + performance.now()`, which is comparable across threads. The
 * direct-stdio baseline reads pi on the bridge's thread, where the bridge reads it.
 *
 * Run on Node 22: node --conditions=@pi-kit/source bench/bridge/relay.bench.ts
 */
import process from "node:process";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { serveBridge } from "@pi-kit/bridge/node";
import { spawnNode } from "@pi-kit/client/node";
import { piCommand, sessionHostOptions, startModelServer } from "@pi-kit/testing";
import { quick, report } from "../lib/measure.ts";
import { clientThread } from "./client-thread.ts";
import { afterSocketSend, median, ms, now, percentile, piTap } from "./timing.ts";

const WORDS = quick ? 500 : 3000;
const ROUNDS = quick ? 3 : 7;
const SESSIONS = quick ? 4 : 10;
const MiB = 1024 * 1024;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
// Where the bridge hands each record to the socket, to split the added latency into the bridge's
// own part and the rest (loopback and the client thread).
const handedOver: number[] = [];
let stampSends = false;
afterSocketSend(() => {
  if (stampSends) handedOver.push(now());
});

const model = await startModelServer();
const pi = piCommand({ version: "1", baseUrl: model.baseUrl });
const host = sessionHostOptions(pi);

// Every frame pi writes in the tapped session, stamped as its batch leaves the transport (direct stdio).
const tap = piTap();
const tapped = tap.stamps;

const served = await serveBridge({
  port: 0,
  ...host,
  logger: () => {},
  spawn: tap.spawn,
  limits: { maxSessions: SESSIONS + 4 },
});
const wsBase = served.url.replace(/^http/, "ws");

/** The WebSocket clients, on a thread of their own (see `client-worker.ts`). */
const thread = clientThread();
const { ask } = thread;

/** A WebSocket client on the client thread; `keep` stamps every record it receives. */
async function client(name: string, keep: boolean) {
  const id = await thread.open(`${wsBase}/sessions/${name}/ws`, served.token, keep);
  return {
    send: (record: object) => ask("send", { client: id, record: JSON.stringify(record) }),
    /** Sends `record` and resolves once a record of type `until` arrives, timed on the client. */
    run: (record: object, until: string) =>
      ask("run", { client: id, record: JSON.stringify(record), until }),
    count: async () => (await ask("count", { client: id })).count,
    stamps: async () => (await ask("stamps", { client: id })).stamps,
    close: () => ask("close", { client: id }),
  };
}

// The two threads' clocks: `timeOrigin + now()` should agree to well under the figures measured.
const clockSkew: number[] = [];
for (let i = 0; i < 20; i++) {
  const before = now();
  const { now: there } = await ask("clock", {});
  clockSkew.push(there - (before + now()) / 2);
}
console.log(`clock: client thread minus bridge thread ${ms(median(clockSkew))} (median of 20)`);

// 1. Latency per event and throughput: the tapped session against a direct pi, interleaved.
tap.next();
const relayedClient = await client("tapped", true);
// The same pi, as the kit runs it: without a session directory.
const direct = await spawnNode({ ...host.pi, args: pi.args });
const directReader = direct.readable.getReader();
const directWriter = direct.writable.getWriter();
async function directRun(): Promise<number> {
  const start = now();
  await directWriter.write(`${JSON.stringify({ type: "prompt", message: `[[long ${WORDS}]]` })}\n`);
  for (;;) {
    const { value } = await directReader.read();
    if (
      value?.some(
        (frame) => typeof frame === "string" && frame.startsWith('{"type":"agent_settled"'),
      )
    )
      break;
  }
  return now() - start;
}

// Records pi wrote before the client was attached were tapped but never relayed.
await new Promise((r) => setTimeout(r, 200));
const firstReceived = await relayedClient.count();
const skipped = tapped.length - firstReceived;
stampSends = true;
const ends: number[] = [];
const times = { direct: [] as number[], bridge: [] as number[] };
for (let round = -1; round < ROUNDS; round++) {
  const directMs = await directRun();
  const { ms: bridgeMs, count } = await relayedClient.run(
    { type: "prompt", message: `[[long ${WORDS}]]` },
    "agent_settled",
  );
  ends.push(count);
  if (round < 0) continue; // warm-up
  times.direct.push(directMs);
  times.bridge.push(bridgeMs);
}
stampSends = false;
const received = await relayedClient.stamps();
if (received.length !== tapped.length - skipped) {
  console.log(`warning: ${tapped.length - skipped} records tapped, ${received.length} received`);
}
const deltas: number[] = [];
const perRun = { p50: [] as number[], p99: [] as number[] };
const inBridge: number[] = [];
const afterBridge: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const run: number[] = [];
  for (let i = ends[round] as number; i < (ends[round + 1] as number); i++) {
    const sent = tapped[i + skipped] as number;
    const handed = handedOver[i - firstReceived];
    run.push((received[i] as number) - sent);
    if (handed !== undefined) {
      inBridge.push(handed - sent);
      afterBridge.push((received[i] as number) - handed);
    }
  }
  run.sort((a, b) => a - b);
  perRun.p50.push(percentile(run, 0.5));
  perRun.p99.push(percentile(run, 0.99));
  deltas.push(...run);
  console.log(
    `  run ${round + 1}: direct ${times.direct[round]?.toFixed(0)} ms, bridge ${times.bridge[round]?.toFixed(0)} ms; ` +
      `added p50 ${ms(percentile(run, 0.5))}, p99 ${ms(percentile(run, 0.99))}, max ${ms(run[run.length - 1] as number)} (${run.length} records)`,
  );
}
deltas.sort((a, b) => a - b);
const throughputRatio = median(times.direct) / median(times.bridge);
console.log(
  `latency: ${deltas.length} events over ${ROUNDS} answers of ${WORDS} words; ` +
    `direct ${median(times.direct).toFixed(0)} ms, bridge ${median(times.bridge).toFixed(0)} ms per answer (medians)`,
);
console.log(
  `  added latency, median of the runs: p50 ${ms(median(perRun.p50))}, p99 ${ms(median(perRun.p99))}; ` +
    `all events pooled: p50 ${ms(percentile(deltas, 0.5))}, p99 ${ms(percentile(deltas, 0.99))}, ` +
    `min ${ms(deltas[0] as number)}, max ${ms(deltas[deltas.length - 1] as number)}`,
);
if (inBridge.length === deltas.length) {
  inBridge.sort((a, b) => a - b);
  afterBridge.sort((a, b) => a - b);
  console.log(
    `  of which in the bridge (tap to socket): p50 ${ms(percentile(inBridge, 0.5))}, p99 ${ms(percentile(inBridge, 0.99))}; ` +
      `loopback and client thread: p50 ${ms(percentile(afterBridge, 0.5))}, p99 ${ms(percentile(afterBridge, 0.99))}`,
  );
}
const tappedInfo = served.bridge.sessions.get("tapped")?.info();
console.log(
  `  backpressure on the tapped session: ${tappedInfo?.pauses} pauses, peak ${tappedInfo?.peakBufferedAmount} bytes queued`,
);
const sortedTimes = (xs: number[]) => [...xs].sort((a, b) => a - b);
for (const [name, xs] of Object.entries(times)) {
  const sorted = sortedTimes(xs);
  console.log(
    `  ${name} answer times: p50 ${percentile(sorted, 0.5).toFixed(0)} ms, p99 ${percentile(sorted, 0.99).toFixed(0)} ms`,
  );
}
await relayedClient.close();
await direct.close();

// 2. Memory in the bridge per idle and per streaming session (pi and the clients run elsewhere).
/**
 * Memory the bridge's JavaScript holds: heap plus buffers of this thread's isolate, so the client
 * thread's memory stays out (RSS is process-wide, and too coarse per session anyway).
 */
const used = (): number => {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};
gc();
const base = used();
const idle = await Promise.all(
  Array.from({ length: SESSIONS }, (_, i) => client(`idle-${i}`, false)),
);
await Promise.all(idle.map((c) => c.send({ type: "get_state" })));
await new Promise((r) => setTimeout(r, 500));
gc();
const idleRss = used();
let peak = idleRss;
const sampler = setInterval(() => {
  peak = Math.max(peak, used());
}, 10);
await Promise.all(
  idle.map((c) => c.run({ type: "prompt", message: `[[long ${WORDS}]]` }, "agent_settled")),
);
clearInterval(sampler);
await Promise.all(idle.map((c) => c.close()));
await thread.terminate();
await served.close();
await model.close();
pi.dispose();

const perIdle = Math.max(0, idleRss - base) / SESSIONS;
const perStreaming = Math.max(0, peak - base) / SESSIONS;
console.log(
  `memory: ${SESSIONS} sessions; idle ${(perIdle / 1024).toFixed(0)} KiB each, streaming ${(perStreaming / MiB).toFixed(2)} MiB each (heap + external of the bridge thread)`,
);

report("Bridge relay (issue: remote pi)", [
  // Medians across the interleaved runs: one run disturbed by the machine does not decide.
  { name: "added latency p50", value: median(perRun.p50), op: "<=", target: 1, unit: " ms" },
  { name: "added latency p99", value: median(perRun.p99), op: "<=", target: 5, unit: " ms" },
  { name: "throughput vs direct stdio", value: throughputRatio, op: ">=", target: 0.7, unit: "x" },
  {
    name: "bridge memory per idle session",
    value: perIdle / MiB,
    op: "<=",
    target: 1,
    unit: " MiB",
  },
  {
    name: "bridge memory per streaming session",
    value: perStreaming / MiB,
    op: "<=",
    target: 4,
    unit: " MiB",
  },
]);
