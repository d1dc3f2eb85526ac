/**
 * Client overhead at startup (issue 3, third item): real pi 1.x (Node 22, scripted model server,
 * isolated HOME) started two ways, interleaved:
 *   (a) pi alone: spawn it with node:child_process, write `get_state` at once, time to its response;
 *   (b) the client: `PiClient.connect(await spawnNode(...))`, time to connected.
 * Both clocks start just before the spawn. The target is on the median of the paired differences
 * (each client run minus the pi-alone run before it); both medians are printed too. pi's start-up
 * varies by tens of milliseconds between runs, so (b) also times, within the same run, when pi's
 * `get_state` answer reached the pipe (via the `child_process` diagnostics channel): connected
 * minus that instant is the client's own share, free of pi's variance. Most of it is `connect`'s
 * second, sequential round trip: the version probe (`get_available_thinking_levels`).
 */
import { spawn } from "node:child_process";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { PiClient } from "@pi-kit/client";
import { spawnNode } from "@pi-kit/client/node";
import { piCommand, startModelServer } from "@pi-kit/testing";
import { quick, report } from "../lib/measure.ts";
import { median } from "./timing.ts";

const RUNS = quick ? 2 : 11;
const server = await startModelServer();
const cmd = piCommand({ version: "1", baseUrl: server.baseUrl });
const spawnOptions = { cwd: cmd.cwd, env: cmd.env };

/** (a) pi alone: milliseconds from spawn to `get_state`'s answer. */
async function piAlone(): Promise<number> {
  const start = performance.now();
  const child = spawn(cmd.command, [...cmd.args], { ...spawnOptions, stdio: "pipe" });
  child.stdin.write(`${JSON.stringify({ id: "bench-1", type: "get_state" })}\n`);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const ms = await new Promise<number>((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      for (const line of text.split("\n").slice(0, -1)) {
        const record = JSON.parse(line) as { type?: string; id?: string; success?: boolean };
        if (record.type === "response" && record.id === "bench-1") {
          if (record.success !== true) reject(new Error(`get_state failed: ${line}`));
          resolve(performance.now() - start);
        }
      }
    });
    child.once("exit", (code) => reject(new Error(`pi exited (${code}) before answering`)));
  });
  child.stdin.end();
  await exited;
  return ms;
}

/** (b) the client: milliseconds from spawn to connected, and to pi's answer reaching the pipe. */
async function throughClient(): Promise<{ connected: number; answered: number; probed: number }> {
  let answeredAt = Number.NaN;
  let probedAt = Number.NaN;
  // The transport hides its child process; the diagnostics channel hands it over at spawn.
  const onSpawn = (message: unknown): void => {
    const child = (message as { process: ReturnType<typeof spawn> }).process;
    // Published from the constructor, before the pipes exist: attach once spawn() has made them.
    queueMicrotask(() => {
      child.stdout?.on("data", (chunk: Buffer) => {
        const now = performance.now();
        if (Number.isNaN(answeredAt) && chunk.includes('"command":"get_state"')) answeredAt = now;
        if (Number.isNaN(probedAt) && chunk.includes('"command":"get_available_thinking_levels"')) {
          probedAt = now;
        }
      });
    });
  };
  subscribe("child_process", onSpawn);
  const start = performance.now();
  try {
    const transport = await spawnNode({
      command: cmd.command,
      args: cmd.args,
      ...spawnOptions,
      inheritEnv: false,
    });
    const client = await PiClient.connect(transport);
    const connected = performance.now() - start;
    await client.close();
    return { connected, answered: answeredAt - start, probed: probedAt - start };
  } finally {
    unsubscribe("child_process", onSpawn);
  }
}

const alone: number[] = [];
const connected: number[] = [];
const ownShare: number[] = [];
const probeTrip: number[] = [];
try {
  // One warm-up of each (disk cache, JIT of this process), then interleaved runs.
  await piAlone();
  await throughClient();
  for (let i = 0; i < RUNS; i++) {
    alone.push(await piAlone());
    const run = await throughClient();
    connected.push(run.connected);
    ownShare.push(run.connected - run.answered);
    probeTrip.push(run.probed - run.answered);
  }
} finally {
  cmd.dispose();
  await server.close();
}

const list = (values: number[]) => values.map((v) => v.toFixed(0)).join(", ");
console.log(`pi ${cmd.piVersion} alone, spawn to get_state answer: ${list(alone)} ms`);
console.log(`PiClient.connect(spawnNode(...)), spawn to connected: ${list(connected)} ms`);
const tenths = (values: number[]) => values.map((v) => v.toFixed(1)).join(", ");
console.log(
  `within each client run, pi's get_state answer on the pipe to connected: ${tenths(ownShare)} ms, of which the version probe's round trip (get_state answer to probe answer on the pipe): ${tenths(probeTrip)} ms`,
);
// Each client run is paired with the pi-alone run just before it, so load that drifts over the
// benchmark (other work on the machine) cancels out of the difference.
const paired = median(connected.map((ms, i) => ms - (alone[i] as number)));
console.log(
  `medians: pi alone ${median(alone).toFixed(0)} ms, client ${median(connected).toFixed(0)} ms, difference ${(median(connected) - median(alone)).toFixed(1)} ms; median of paired differences ${paired.toFixed(1)} ms; client's own share (same run) ${median(ownShare).toFixed(1)} ms`,
);

report("client startup", [
  {
    name: "client overhead at startup (median of paired differences, connected - pi alone)",
    value: paired,
    op: "<=",
    target: 10,
    unit: " ms",
  },
  {
    name: "the same measured within each run (answer on the pipe to connected)",
    value: median(ownShare),
    op: "<=",
    target: 10,
    unit: " ms",
  },
]);
