import assert from "node:assert/strict";
import process from "node:process";
import { after, before, test } from "node:test";
import {
  listProcesses,
  type ModelServer,
  type ProcessEntry,
  piCommand,
  sessionHostOptions,
  startModelServer,
  waitForNoProcesses,
  waitForProcess,
} from "@pi-kit/testing";
import { address, printedToken, runCli } from "../cli-process.ts";
import { connect } from "../helpers.ts";

let model: ModelServer;
before(async () => {
  model = await startModelServer();
});
after(() => model.close());

/** How each way of stopping the bridge reaches it, and the CLI's own options. */
const STOPS: ReadonlyArray<{
  readonly name: string;
  readonly send: (pid: number) => void;
  readonly options?: readonly string[];
  readonly graceful: boolean;
}> = [
  // What a terminal's Ctrl-C does: SIGINT to every process of the foreground job's group.
  {
    name: "Ctrl-C (SIGINT to the group)",
    send: (pid) => process.kill(-pid, "SIGINT"),
    graceful: true,
  },
  { name: "SIGTERM", send: (pid) => process.kill(pid, "SIGTERM"), graceful: true },
  { name: "SIGHUP", send: (pid) => process.kill(pid, "SIGHUP"), graceful: true },
  { name: "SIGKILL", send: (pid) => process.kill(pid, "SIGKILL"), graceful: false },
  {
    name: "SIGKILL, sandboxed",
    send: (pid) => process.kill(pid, "SIGKILL"),
    options: ["--sandbox", "bwrap"],
    graceful: false,
  },
];

/**
 * Starts the CLI in a process group of its own, lets the model start `sleep <marker>` through
 * pi's bash tool, stops the bridge the given way and returns every process of the session that
 * is still alive a while later: pi, anything in pi's group or session, and the tool's sleep.
 */
async function survivorsAfter(stop: (typeof STOPS)[number]): Promise<{
  survivors: ProcessEntry[];
  piExit: Record<string, unknown> | undefined;
}> {
  const pi = piCommand({ version: "1", baseUrl: model.baseUrl });
  const host = sessionHostOptions(pi);
  const cli = runCli(
    [
      ...["--port", "0", "--sessions-dir", host.sessionsDir, ...(stop.options ?? [])],
      ...["--", host.pi.command, ...host.pi.args],
    ],
    { env: host.pi.env, cwd: host.pi.cwd, group: true },
  );
  // A duration no other process on the machine uses, so the sleep is found by its argv.
  const marker = `${300 + Math.floor(Math.random() * 1e6) / 1e6}`;
  const isSession = (piPid: number) => (p: ProcessEntry) =>
    p.pid === piPid ||
    p.pgid === piPid ||
    p.sid === piPid ||
    // pi's own arguments name its session directory (a sandboxed pi has a session of its own).
    p.argv.some((arg) => arg.startsWith(host.sessionsDir)) ||
    (p.argv[0]?.endsWith("sleep") === true && p.argv[1] === marker);
  let piPid = -1;
  try {
    const url = await cli.listening();
    const token = printedToken(cli.stdout()) as string;
    const client = await connect(address(url, token), "work");
    client.send({ type: "prompt", id: "p", message: `[[bash sleep ${marker}]]` });
    await client.waitFor((r) => r.type === "tool_execution_start", 60_000);
    const info = (await (
      await fetch(`${url}/api/sessions/work`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { session: { pid: number } };
    piPid = info.session.pid;
    await waitForProcess((p) => p.argv[1] === marker, 20_000);
    stop.send(cli.pid);
    await cli.exited;
    const survivors = await waitForNoProcesses(isSession(piPid), 15_000);
    const exitLine = cli
      .stderr()
      .split("\n")
      .find((line) => line.includes('"event":"pi_exit"'));
    return {
      survivors,
      piExit:
        exitLine === undefined ? undefined : (JSON.parse(exitLine) as Record<string, unknown>),
    };
  } finally {
    cli.kill();
    for (const p of listProcesses().filter(isSession(piPid))) {
      try {
        process.kill(p.pid, "SIGKILL");
      } catch {
        // Went by itself.
      }
    }
    pi.dispose();
  }
}

test("signals: however the bridge is stopped, no process of a session outlives it", async () => {
  const results = await Promise.all(STOPS.map((stop) => survivorsAfter(stop)));
  const seen = Object.fromEntries(
    results.map(({ survivors, piExit }, i) => [
      STOPS[i]?.name,
      {
        survivors: survivors.map((p) => p.argv.join(" ")),
        // A bridge that can react stops pi gracefully: stdin closed, pi exits 0 by itself.
        piExit: STOPS[i]?.graceful ? [piExit?.exitCode, piExit?.signal] : "n/a",
      },
    ]),
  );
  const expected = Object.fromEntries(
    STOPS.map((stop) => [stop.name, { survivors: [], piExit: stop.graceful ? [0, null] : "n/a" }]),
  );
  assert.deepEqual(seen, expected);
});
