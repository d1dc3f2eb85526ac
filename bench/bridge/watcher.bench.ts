/**
 * Bridge benchmark: what a watcher costs. The latency the bridge adds per event on the
 * controller's socket (pi's stdout to the client thread), with one watcher attached against none,
 * in interleaved answers of one run; and the bridge's memory per watcher attached to a session.
 * The controller and the watchers run on worker threads of their own (`client-worker.ts`), as in
 * `relay.bench.ts`. The target is on the bridge's own part (pi's stdout to the controller's socket
 * send); pi's stdout to the client thread is printed too, but on a small machine it also measures
 * the watcher's thread competing with the controller's for the same cores.
 *
 * Run on Node 22: node --conditions=@pi-kit/source bench/bridge/watcher.bench.ts
 */
import process from "node:process";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { serveBridge } from "@pi-kit/bridge/node";
import { piCommand, sessionHostOptions, startModelServer } from "@pi-kit/testing";
import { quick, report } from "../lib/measure.ts";
import { clientThread } from "./client-thread.ts";
import { afterSocketSend, median, ms, now, percentile, piTap } from "./timing.ts";

const WORDS = quick ? 500 : 3000;
const ROUNDS = quick ? 3 : 7;
const WATCHERS = quick ? 10 : 50;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

// When the bridge hands each of pi's records to the controller's socket (its first socket).
const handedOver: number[] = [];
let controllerSocket: unknown;
let capture = false;
afterSocketSend((socket, data) => {
  if (capture && controllerSocket === undefined) controllerSocket = socket;
  const bridgeRecord = typeof data === "string" && data.startsWith('{"type":"bridge_');
  if (socket === controllerSocket && !bridgeRecord) handedOver.push(now());
});

const model = await startModelServer();
const pi = piCommand({ version: "1", baseUrl: model.baseUrl });
const host = sessionHostOptions(pi);

// Every frame pi writes in the first session, stamped as its batch leaves the transport.
const tap = piTap();
tap.next();
const tapped = tap.stamps;

const served = await serveBridge({ port: 0, ...host, logger: () => {}, spawn: tap.spawn });
const wsBase = served.url.replace(/^http/, "ws");
/** The controller and the watchers each get a client thread, as separate devices would. */
const main = clientThread();
const others = clientThread();
const { ask } = main;
const open = (thread: typeof main, name: string, keep: boolean): Promise<number> =>
  thread.open(`${wsBase}/sessions/${name}/ws`, served.token, keep);

// 1. Added latency per event on the controller's socket: answers alone and watched, interleaved.
capture = true;
const controller = await open(main, "watched", true);
const prompt = JSON.stringify({ type: "prompt", message: `[[long ${WORDS}]]` });
await ask("run", { client: controller, record: prompt, until: "agent_settled" }); // warm-up
const p50 = { alone: [] as number[], watched: [] as number[] };
const inBridge = { alone: [] as number[], watched: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of ["alone", "watched"] as const) {
    const watcher = mode === "watched" ? await open(others, "watched", false) : undefined;
    const from = (await ask("count", { client: controller })).count;
    const offset = tapped.length - from;
    const handedFrom = handedOver.length;
    await ask("run", { client: controller, record: prompt, until: "agent_settled" });
    const received = (await ask("stamps", { client: controller })).stamps;
    const deltas: number[] = [];
    for (let i = from; i < received.length; i++) {
      deltas.push((received[i] as number) - (tapped[i + offset] as number));
    }
    deltas.sort((a, b) => a - b);
    p50[mode].push(percentile(deltas, 0.5));
    const own: number[] = [];
    for (let i = handedFrom; i < handedOver.length; i++) {
      own.push((handedOver[i] as number) - (tapped[i - handedFrom + from + offset] as number));
    }
    own.sort((a, b) => a - b);
    inBridge[mode].push(percentile(own, 0.5));
    if (watcher !== undefined) await others.ask("close", { client: watcher });
  }
}
const alone = median(inBridge.alone);
const watched = median(inBridge.watched);
console.log(
  `latency: ${ROUNDS} answers of ${WORDS} words each way, medians of the runs' p50s; ` +
    `in the bridge (pi's stdout to the controller's socket): alone ${ms(alone)}, with one watcher ${ms(watched)}; ` +
    `to the client thread: alone ${ms(median(p50.alone))}, with one watcher ${ms(median(p50.watched))}`,
);

// 2. The bridge's memory per watcher attached to an idle session.
/** Heap + external after collecting until it stops shrinking (the latency runs leave garbage whose finalizers free more). */
async function used(): Promise<number> {
  let last = Number.POSITIVE_INFINITY;
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    gc();
    const m = process.memoryUsage();
    const now = m.heapUsed + m.external;
    if (now >= last - 16 * 1024) return now;
    last = now;
  }
}
const first = await open(main, "idle", false);
await ask("send", { client: first, record: '{"type":"get_state","id":"s"}' });
const before = await used();
const watchers = await Promise.all(
  Array.from({ length: WATCHERS }, () => open(others, "idle", false)),
);
const perWatcher = Math.max(0, (await used()) - before) / WATCHERS;
console.log(
  `memory: ${WATCHERS} watchers on one session, ${(perWatcher / 1024).toFixed(1)} KiB each (heap + external of the bridge thread)`,
);
await ask("close", { client: first });
await Promise.all(watchers.map((client) => others.ask("close", { client })));
await main.terminate();
await others.terminate();
await served.close();
await model.close();
pi.dispose();

report("Bridge watchers (issue 13: several viewers per session)", [
  {
    name: "added latency p50, one watcher minus none",
    value: watched - alone,
    op: "<=",
    target: 0.5,
    unit: " ms",
  },
  {
    name: "bridge memory per watcher",
    value: perWatcher / 1024,
    op: "<=",
    target: 256,
    unit: " KiB",
  },
]);
