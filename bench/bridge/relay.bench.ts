/**
 * Bridge benchmark: the latency the bridge adds per event (the same pi stream timed as it leaves
 * pi's stdout and as it arrives over the WebSocket, in one run), the throughput through the
 * bridge against direct stdio, and the bridge's memory per idle and per streaming session.
 * Run on Node 22: node --conditions=@pi-kit/source bench/bridge/relay.bench.ts
 */
import process from "node:process";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { serveBridge } from "@pi-kit/bridge/node";
import type { ChildProcessOptions, ChildProcessTransport } from "@pi-kit/client/node";
import { spawnNode } from "@pi-kit/client/node";
import { piCommand, startModelServer } from "@pi-kit/testing";
import { quick, report } from "../lib/measure.ts";

const WORDS = quick ? 500 : 3000;
const ROUNDS = quick ? 3 : 7;
const SESSIONS = quick ? 4 : 10;
const MiB = 1024 * 1024;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const model = await startModelServer();
const pi = piCommand({ version: "1", baseUrl: model.baseUrl });
const args = pi.args.filter((a) => a !== "--no-session");
const spec = { command: pi.command, args, cwd: pi.cwd, env: pi.env };

// Every frame pi writes in the tapped session, stamped as it leaves the transport (direct stdio).
const tapped: number[] = [];
let tapNext = false;
async function tappedSpawn(options: ChildProcessOptions): Promise<ChildProcessTransport> {
  const transport = await spawnNode(options);
  if (!tapNext) return transport;
  tapNext = false;
  const stamps = tapped;
  const [direct, relayed] = transport.readable.tee();
  void (async () => {
    const reader = direct.getReader();
    while (!(await reader.read()).done) stamps.push(performance.now());
  })();
  return { ...transport, readable: relayed };
}

const served = await serveBridge({
  port: 0,
  pi: spec,
  sessionsDir: `${pi.tempRoot}/sessions`,
  logger: () => {},
  spawn: tappedSpawn,
  limits: { maxSessions: SESSIONS + 4 },
});
const wsBase = served.url.replace(/^http/, "ws");

/** A minimal WebSocket client that stamps every message and can wait for a record type. */
async function client(name: string, keep: boolean) {
  const ws = new WebSocket(`${wsBase}/sessions/${name}/ws`, [
    "pi-kit.v1",
    `pi-kit.token.${served.token}`,
  ]);
  const stamps: number[] = [];
  let waiting: { type: string; resolve: () => void } | undefined;
  ws.onmessage = (event) => {
    if (keep) stamps.push(performance.now());
    const text = event.data as string;
    if (waiting !== undefined && text.includes(`"type":"${waiting.type}"`)) {
      const { resolve } = waiting;
      waiting = undefined;
      resolve();
    }
  };
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  return {
    stamps,
    send: (record: object) => ws.send(JSON.stringify(record)),
    until: (type: string) =>
      new Promise<void>((resolve) => {
        waiting = { type, resolve };
      }),
    close: () => ws.close(),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;
}

// 1. Latency per event and throughput: the tapped session against a direct pi, round-robin.
tapNext = true;
const relayedClient = await client("tapped", true);
const direct = await spawnNode({ ...spec, args: [...args, "--no-session"] });
const directReader = direct.readable.getReader();
const directWriter = direct.writable.getWriter();
async function directRun(): Promise<number> {
  const start = performance.now();
  await directWriter.write(`${JSON.stringify({ type: "prompt", message: `[[long ${WORDS}]]` })}\n`);
  for (;;) {
    const { value } = await directReader.read();
    if (typeof value === "string" && value.startsWith('{"type":"agent_settled"')) break;
  }
  return performance.now() - start;
}

const deltas: number[] = [];
const times = { direct: [] as number[], bridge: [] as number[] };
let events = 0;
for (let round = -1; round < ROUNDS; round++) {
  const directMs = await directRun();
  const fromClient = relayedClient.stamps.length;
  const stamps = tapped;
  const fromTap = stamps.length;
  const start = performance.now();
  const settled = relayedClient.until("agent_settled");
  relayedClient.send({ type: "prompt", message: `[[long ${WORDS}]]` });
  await settled;
  const bridgeMs = performance.now() - start;
  if (round < 0) continue; // warm-up
  times.direct.push(directMs);
  times.bridge.push(bridgeMs);
  const got = relayedClient.stamps.slice(fromClient);
  const sent = stamps.slice(fromTap);
  const n = Math.min(got.length, sent.length);
  events = n;
  for (let i = 0; i < n; i++) deltas.push((got[i] as number) - (sent[i] as number));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
deltas.sort((a, b) => a - b);
const throughputRatio = median(times.direct) / median(times.bridge);
console.log(
  `latency: ${deltas.length} events over ${ROUNDS} answers of ${WORDS} words (${events} records each); ` +
    `direct ${median(times.direct).toFixed(0)} ms, bridge ${median(times.bridge).toFixed(0)} ms per answer`,
);
relayedClient.close();
await direct.close();

// 2. Memory in the bridge process per idle and per streaming session (pi runs elsewhere).
/** Memory the bridge's JavaScript holds: heap plus buffers (RSS is too coarse per session). */
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
  idle.map((c) => {
    const settled = c.until("agent_settled");
    c.send({ type: "prompt", message: `[[long ${WORDS}]]` });
    return settled;
  }),
);
clearInterval(sampler);
for (const c of idle) c.close();
await served.close();
await model.close();
pi.dispose();

const perIdle = Math.max(0, idleRss - base) / SESSIONS;
const perStreaming = Math.max(0, peak - base) / SESSIONS;
console.log(
  `memory: ${SESSIONS} sessions; idle ${(perIdle / 1024).toFixed(0)} KiB each, streaming ${(perStreaming / MiB).toFixed(2)} MiB each (heap + external of the bridge process)`,
);

report("Bridge relay (issue: remote pi)", [
  { name: "added latency p50", value: percentile(deltas, 0.5), op: "<=", target: 1, unit: " ms" },
  { name: "added latency p99", value: percentile(deltas, 0.99), op: "<=", target: 5, unit: " ms" },
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
