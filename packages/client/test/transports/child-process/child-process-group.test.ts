import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import {
  listProcesses,
  type ProcessEntry,
  piCommand,
  readProcess,
  scriptCommand,
  startModelServer,
  waitForNoProcesses,
  waitForProcess,
} from "@pi-kit/testing";
import { spawnPi } from "../../../src/process.ts";
import { frameReader } from "../../support/frame-reader.ts";

const fakePi = fileURLToPath(new URL("../../fixtures/fake-pi.mjs", import.meta.url));
const piHost = fileURLToPath(new URL("../../fixtures/pi-host.ts", import.meta.url));
const deno = (globalThis as { Deno?: { execPath(): string } }).Deno;

/** A duration no other process uses, so a tool's sleep is found by its argv. */
const uniqueSleep = (): string => `${300 + Math.floor(Math.random() * 1e6) / 1e6}`;

test("group: pi leads a process group and session of its own; a stop ends what it left there", async () => {
  const transport = await spawnPi({
    command: deno === undefined ? process.execPath : deno.execPath(),
    args: [...(deno === undefined ? [] : ["run", "-A"]), fakePi],
  });
  const pid = transport.pid as number;
  const reader = frameReader(transport.readable);
  await transport.writable
    .getWriter()
    .write(`${JSON.stringify({ type: "spawn", id: "s", seconds: uniqueSleep() })}\n`);
  const sleep = (await reader.until((r) => r.id === "s")).data as number;
  const groups = [readProcess(pid)?.pgid, readProcess(pid)?.sid, readProcess(sleep)?.pgid];
  const draining = reader.drain();
  const info = await transport.close();
  await draining;
  const left = readProcess(sleep);
  if (left !== undefined && left.state !== "Z") process.kill(sleep, "SIGKILL");
  assert.deepEqual(groups, [pid, pid, pid]);
  // pi exited by itself when its stdin closed; the sleep it left behind was swept with the group.
  assert.deepEqual([info.exitCode, info.signal], [0, null]);
  assert.ok(left === undefined || left.state === "Z", `the sleep is ${left?.state}`);
});

test("group: Ctrl-C ending the host does not kill pi by signal; pi ends its tools", async () => {
  const model = await startModelServer();
  const pi = piCommand({ version: "1", baseUrl: model.baseUrl });
  const marker = uniqueSleep();
  const options = { command: pi.command, args: pi.args, cwd: pi.cwd, env: pi.env };
  const run = scriptCommand(piHost, [JSON.stringify(options), marker]);
  // As a shell starts a job: in a group of its own, whose members all get the terminal's Ctrl-C.
  const host = spawn(run.command, [...run.args], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  host.stderr.setEncoding("utf8").on("data", (text: string) => (err += text));
  const exited = new Promise((resolve) => host.once("exit", resolve));
  let piPid = -1;
  const isSession = (p: ProcessEntry): boolean =>
    p.pid === piPid ||
    p.pgid === piPid ||
    (p.argv[0]?.endsWith("sleep") === true && p.argv[1] === marker);
  try {
    piPid = await new Promise<number>((resolve, reject) => {
      host.stdout.setEncoding("utf8").on("data", (text: string) => {
        out += text;
        const match = /^pi (\d+)$/m.exec(out);
        if (match !== null) resolve(Number(match[1]));
      });
      host.once("exit", () => reject(new Error(`the host exited early:\n${err}`)));
    });
    await waitForProcess((p) => p.argv[1] === marker, 20_000);
    process.kill(-(host.pid as number), "SIGINT");
    await exited;
    assert.deepEqual(
      (await waitForNoProcesses(isSession, 15_000)).map((p) => p.argv.join(" ")),
      [],
    );
  } finally {
    for (const p of listProcesses().filter(isSession)) process.kill(p.pid, "SIGKILL");
    host.kill("SIGKILL");
    pi.dispose();
    await model.close();
  }
});
