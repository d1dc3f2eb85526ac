/**
 * One bridge per sessions directory: the lock refuses a second live bridge with who holds it,
 * takes over from a crashed one, and of several bridges racing for a stale lock lets one win.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { piCommand, scriptCommand, sessionHostOptions, startModelServer } from "@pi-kit/testing";
import { BridgeErrorCode, SessionsDirInUseError } from "../../src/index.ts";
import {
  LOCK_FILE,
  lockSessionsDir,
  type SessionsDirHolder,
} from "../../src/placement/sessions-dir-lock.ts";
import { runCli } from "../cli-process.ts";
import { startBridge } from "../helpers.ts";

const scratch = mkdtempSync(join(tmpdir(), "pi-kit-lock-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
let count = 0;
const fresh = (): string => mkdtempSync(join(scratch, `d${count++}-`));

/** The pid of a process that has exited: nothing runs with it (until the system reuses it). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["--version"]);
  assert.equal(child.status, 0);
  return child.pid as number;
}

/** Writes a lock file as another bridge would have left it. */
function leaveLock(dir: string, holder: Partial<SessionsDirHolder>, ageMs = 0): void {
  const file = join(dir, LOCK_FILE);
  writeFileSync(
    file,
    JSON.stringify({ since: new Date().toISOString(), instance: "old", ...holder }),
  );
  const then = new Date(Date.now() - ageMs);
  utimesSync(file, then, then);
}

test("lock: a second bridge is refused with the first one's pid, host and URL; release frees it", () => {
  const dir = fresh();
  const first = lockSessionsDir(dir, { url: "http://127.0.0.1:1111" });
  let refused: unknown;
  assert.throws(() => {
    try {
      lockSessionsDir(dir);
    } catch (error) {
      refused = error;
      throw error;
    }
  }, SessionsDirInUseError);
  assert.ok(refused instanceof SessionsDirInUseError);
  assert.equal(refused.code, BridgeErrorCode.SessionsDirInUse);
  assert.deepEqual(
    { pid: refused.holder.pid, host: refused.holder.host, url: refused.holder.url },
    { pid: process.pid, host: hostname(), url: "http://127.0.0.1:1111" },
  );
  assert.match(refused.message, new RegExp(`pid ${process.pid} on .* at http://127.0.0.1:1111`));
  first.release();
  const second = lockSessionsDir(dir);
  second.release();
});

test("lock: a crashed bridge's lock (its pid gone on this host) is taken over at once", () => {
  const dir = fresh();
  leaveLock(dir, { pid: deadPid(), host: hostname() });
  const lock = lockSessionsDir(dir);
  assert.equal(
    JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8")).instance,
    lock.holder.instance,
  );
  lock.release();
});

test("lock: a garbled lock file is stale; a bridge on another host counts while it refreshes the file", () => {
  const dir = fresh();
  writeFileSync(join(dir, LOCK_FILE), "{not json");
  lockSessionsDir(dir).release();
  leaveLock(dir, { pid: 1, host: "elsewhere", url: "http://elsewhere:8787" });
  assert.throws(() => lockSessionsDir(dir), /pid 1 on elsewhere at http:\/\/elsewhere:8787/);
  leaveLock(dir, { pid: 1, host: "elsewhere" }, 120_000);
  lockSessionsDir(dir).release();
});

test("lock: releasing a lock another bridge has taken over leaves the new holder's lock", () => {
  const dir = fresh();
  const frozen = lockSessionsDir(dir);
  // What a takeover does to a frozen bridge on another host: its file replaced by the new one's.
  leaveLock(dir, { pid: 1, host: "elsewhere", instance: "new" });
  frozen.release();
  assert.equal(JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8")).instance, "new");
});

test("lock: of several bridges racing for one stale lock, exactly one wins", async () => {
  const dir = fresh();
  leaveLock(dir, { pid: deadPid(), host: hostname() });
  const contender = fileURLToPath(new URL("../lock-contender.ts", import.meta.url));
  const children = Array.from({ length: 4 }, () => {
    const { command, args } = scriptCommand(contender, [dir]);
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
    const closed = new Promise((resolve) => child.once("close", resolve));
    const said = new Promise<string>((resolve) => {
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (text: string) => {
        out += text;
        if (out.includes("\n")) resolve(out.trim());
      });
    });
    return { child, closed, said };
  });
  try {
    const said = await Promise.all(children.map((c) => c.said));
    const winners = children.filter((_, i) => said[i] === "won");
    assert.equal(winners.length, 1, said.join(", "));
    const winner = winners[0]?.child.pid;
    for (const line of said.filter((s) => s !== "won")) assert.equal(line, `lost ${winner}`);
  } finally {
    for (const { child } of children) child.kill("SIGKILL");
    await Promise.all(children.map((c) => c.closed));
  }
});

test("bridge: a second bridge on the same sessions directory refuses to start, naming the first; after close it starts", async () => {
  const first = await startBridge();
  try {
    await assert.rejects(startBridge({ sessionsDir: first.sessionsDir }), (error) => {
      assert.ok(error instanceof SessionsDirInUseError);
      assert.equal(error.holder.url, first.url);
      assert.equal(error.holder.pid, process.pid);
      return true;
    });
  } finally {
    await first.close();
  }
  const again = await startBridge({ sessionsDir: first.sessionsDir });
  await again.dispose();
  await first.dispose();
});

test("cli: a second CLI on the same directory exits naming the first's pid and URL; after a SIGKILL the next one starts", async () => {
  const model = await startModelServer();
  const pi = piCommand({ version: "1", baseUrl: model.baseUrl });
  const host = sessionHostOptions(pi);
  const sessions = fresh();
  const start = () =>
    runCli(["--port", "0", "--sessions-dir", sessions, "--", host.pi.command, ...host.pi.args], {
      env: { ...host.pi.env, PI_KIT_BRIDGE_TOKEN: "a-token-of-sixteen-chars-or-more" },
      cwd: host.pi.cwd,
    });
  const first = start();
  let second: ReturnType<typeof start> | undefined;
  try {
    const url = await first.listening();
    second = start();
    const { code } = await second.exited;
    assert.equal(code, 1);
    assert.match(second.stderr(), new RegExp(`pid ${first.pid} on .* at ${url}\\)`));
    first.kill();
    await first.exited;
    const next = start();
    try {
      await next.listening();
    } finally {
      next.kill();
      await next.exited;
    }
  } finally {
    first.kill();
    second?.kill();
    await model.close();
    pi.dispose();
  }
});
