/**
 * How fast the client learns that pi died (issue 3: "pending calls rejected within 100 ms when pi
 * dies"). Real pi 1.x is connected through the child-process transport with a `bash` call in
 * flight; then pi is SIGKILLed from outside. Timed from the kill: the transport's `closed`, and the
 * pending call's rejection (`transport_closed`). The tests check that both are driven by the exit
 * itself; the latency is a figure for a benchmark, not for a loaded test machine.
 */
import { PiClient, PiClientError } from "@pi-kit/client";
import { spawnNode } from "@pi-kit/client/node";
import { piCommand, startModelServer } from "@pi-kit/testing";
import { quick, report } from "../lib/measure.ts";
import { median } from "./timing.ts";

const RUNS = quick ? 2 : 9;
const server = await startModelServer();
const cmd = piCommand({ version: "1", baseUrl: server.baseUrl });

/** One run: milliseconds from SIGKILL to `closed`, and to the pending call's rejection. */
async function killOnce(): Promise<{ closed: number; rejected: number }> {
  const transport = await spawnNode({
    command: cmd.command,
    args: cmd.args,
    cwd: cmd.cwd,
    env: cmd.env,
    inheritEnv: false,
  });
  const client = await PiClient.connect(transport, { capabilities: "1" });
  let started = Number.NaN;
  let rejected = Number.NaN;
  const pending = client.bash("sleep 30").then(
    () => {
      throw new Error("bash finished although pi was killed");
    },
    (error: unknown) => {
      if (!(error instanceof PiClientError) || error.code !== "transport_closed") throw error;
      rejected = performance.now() - started;
    },
  );
  // The bash call is written and pi is working on it once its first output could arrive; a
  // get_state round trip after it orders the kill behind the write.
  await client.getState();
  started = performance.now();
  process.kill(transport.pid as number, "SIGKILL");
  await transport.closed;
  const closed = performance.now() - started;
  await pending;
  await client.close();
  return { closed, rejected };
}

const closed: number[] = [];
const rejected: number[] = [];
try {
  await killOnce(); // warm-up
  for (let i = 0; i < RUNS; i++) {
    const run = await killOnce();
    closed.push(run.closed);
    rejected.push(run.rejected);
  }
} finally {
  cmd.dispose();
  await server.close();
}

const list = (values: number[]) => values.map((v) => v.toFixed(1)).join(", ");
console.log(`pi ${cmd.piVersion} SIGKILLed with a bash call in flight (${RUNS} runs)`);
console.log(`  kill to transport closed: ${list(closed)} ms`);
console.log(`  kill to the pending call rejected: ${list(rejected)} ms`);

report("client: pi dies", [
  {
    name: "kill to the transport's closed (median)",
    value: median(closed),
    op: "<=",
    target: 100,
    unit: " ms",
  },
  {
    name: "kill to the pending call rejected (median)",
    value: median(rejected),
    op: "<=",
    target: 100,
    unit: " ms",
  },
]);
