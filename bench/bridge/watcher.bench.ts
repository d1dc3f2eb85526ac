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
import { Worker } from "node:worker_threads";
import { serveBridge } from "@pi-kit/bridge/node";
import type { ChildProcessOptions, ChildProcessTransport } from "@pi-kit/client/node";
import { spawnNode } from "@pi-kit/client/node";
import { piCommand, sessionHostOptions, startModelServer } from "@pi-kit/testing";
import * as ws from "ws";
import { quick, report } from "../lib/measure.ts";
import type { ClientReplies, ClientRequest } from "./client-worker.ts";

const WORDS = quick ? 500 : 3000;
const ROUNDS = quick ? 3 : 7;
const WATCHERS = quick ? 10 : 50;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const now = (): number => performance.timeOrigin + performance.now();

// When the bridge hands each of pi's records to the controller's socket (its first socket).
const handedOver: number[] = [];
let controllerSocket: unknown;
let capture = false;
const wsSocket = (
  ws as unknown as { WebSocket: { prototype: { send: (...a: unknown[]) => void } } }
).WebSocket.prototype;
const wsSend = wsSocket.send;
wsSocket.send = function (this: unknown, ...a: unknown[]) {
  wsSend.apply(this, a);
  if (capture && controllerSocket === undefined) controllerSocket = this;
  const bridgeRecord = typeof a[0] === "string" && a[0].startsWith('{"type":"bridge_');
  if (this === controllerSocket && !bridgeRecord) handedOver.push(now());
};

const model = await startModelServer();
const pi = piCommand({ version: "1", baseUrl: model.baseUrl });
const host = sessionHostOptions(pi);

// Every frame pi writes in the first session, stamped as its batch leaves the transport.
const tapped: number[] = [];
let tapNext = true;
async function tappedSpawn(options: ChildProcessOptions): Promise<ChildProcessTransport> {
  const transport = await spawnNode(options);
  if (!tapNext) return transport;
  tapNext = false;
  const [direct, relayed] = transport.readable.tee();
  void (async () => {
    const reader = direct.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const at = now();
      for (let i = 0; i < value.length; i++) tapped.push(at);
    }
  })();
  return { ...transport, readable: relayed };
}

const served = await serveBridge({ port: 0, ...host, logger: () => {}, spawn: tappedSpawn });
const wsBase = served.url.replace(/^http/, "ws");
/** A client thread (see `client-worker.ts`): the controller and the watchers each get one, as separate devices would. */
function clientThread() {
  const worker = new Worker(new URL("./client-worker.ts", import.meta.url));
  let nextSeq = 1;
  const replies = new Map<number, (reply: { error?: string }) => void>();
  worker.on("message", (reply: { seq: number; error?: string }) => {
    replies.get(reply.seq)?.(reply);
    replies.delete(reply.seq);
  });
  function ask<K extends keyof ClientReplies>(
    op: K,
    fields: Omit<Extract<ClientRequest, { op: K }>, "op" | "seq">,
  ): Promise<ClientReplies[K]> {
    const seq = nextSeq++;
    return new Promise((resolve, reject) => {
      replies.set(seq, (reply) =>
        reply.error === undefined
          ? resolve(reply as ClientReplies[K])
          : reject(new Error(reply.error)),
      );
      worker.postMessage({ op, seq, ...fields });
    });
  }
  async function open(name: string, keep: boolean): Promise<number> {
    const url = `${wsBase}/sessions/${name}/ws`;
    const protocols = ["pi-kit.v1", `pi-kit.token.${served.token}`];
    return (await ask("open", { url, protocols, keep })).client;
  }
  return { ask, open, terminate: () => worker.terminate() };
}
const main = clientThread();
const others = clientThread();
const { ask, open } = main;
const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const ms = (x: number) => `${x.toFixed(2)} ms`;

// 1. Added latency per event on the controller's socket: answers alone and watched, interleaved.
capture = true;
const controller = await open("watched", true);
const prompt = JSON.stringify({ type: "prompt", message: `[[long ${WORDS}]]` });
await ask("run", { client: controller, record: prompt, until: "agent_settled" }); // warm-up
const p50 = { alone: [] as number[], watched: [] as number[] };
const inBridge = { alone: [] as number[], watched: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of ["alone", "watched"] as const) {
    const watcher = mode === "watched" ? await others.open("watched", false) : undefined;
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
const first = await open("idle", false);
await ask("send", { client: first, record: '{"type":"get_state","id":"s"}' });
const before = await used();
const watchers = await Promise.all(
  Array.from({ length: WATCHERS }, () => others.open("idle", false)),
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
