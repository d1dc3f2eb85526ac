/**
 * `npm start`'s server as a terminal program: one line naming `PORT` when the port is taken (no
 * stack trace), one line per session start and stop by default, the bridge's JSON log with
 * `--verbose`, and a clean exit on Ctrl-C.
 */
import assert from "node:assert/strict";
import { type ChildProcess, type ChildProcessByStdio, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const demoDir = fileURLToPath(new URL("..", import.meta.url));

/** The demo server as `npm start` runs it, with its own state dir unless given one. */
function startServer(
  port: number,
  args: readonly string[] = [],
  stateDir = mkdtempSync(join(tmpdir(), "pi-kit-demo-state-")),
): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(
    process.execPath,
    ["--conditions=@pi-kit/source", "--import", "tsx", "server/main.ts", ...args],
    {
      cwd: demoDir,
      env: {
        ...process.env,
        PORT: String(port),
        PI_KIT_DEMO_STATE_DIR: stateDir,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
}

/** Every line a stream writes, as it comes, plus a wait for the first matching one. */
function lines(stream: NodeJS.ReadableStream) {
  const seen: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  createInterface({ input: stream }).on("line", (line) => {
    seen.push(line);
    for (const waiter of waiters.filter((w) => w.pattern.test(line))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  });
  return {
    seen,
    next(pattern: RegExp): Promise<string> {
      const found = seen.find((line) => pattern.test(line));
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ pattern, resolve }));
    },
  };
}

/** The exit code, once the child's output is read too ("exit" can come before its last lines). */
function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once("close", (code) => resolve(code)));
}

async function listening(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === "object");
  return address.port;
}

/** Opens session `name` through the API the page uses, which starts its pi. */
async function openSession(printed: string, name: string): Promise<void> {
  const url = new URL(printed.replace(/^Open /, ""));
  const token = new URLSearchParams(url.hash.slice(1)).get("token");
  const response = await fetch(new URL("/api/sessions", url), {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });
  assert.ok(response.ok, `POST /api/sessions: ${response.status}`);
}

test("a busy port: one line that names PORT, no stack trace, exit code 1", async () => {
  const blocker = createServer();
  const port = await listening(blocker);
  try {
    const child = startServer(port);
    const stderr = lines(child.stderr);
    const stdout = lines(child.stdout);
    assert.equal(await exited(child), 1);
    assert.deepEqual(stderr.seen.length, 1, `stderr: ${stderr.seen.join("\n")}`);
    assert.match(stderr.seen[0] ?? "", new RegExp(`^Port ${port} is in use.*PORT=<port>`));
    assert.deepEqual(stdout.seen, []);
  } finally {
    blocker.close();
  }
});

test("by default: the address, then one line per session start and stop; Ctrl-C exits cleanly", async () => {
  const child = startServer(0);
  const stdout = lines(child.stdout);
  const stderr = lines(child.stderr);
  const open = await stdout.next(/^Open http/);
  await openSession(open, "quiet");
  await stdout.next(/^session quiet started \(pi pid \d+\)$/);
  child.kill("SIGINT");
  assert.equal(await exited(child), 0);
  assert.deepEqual(
    stdout.seen.filter((line) => line.startsWith("session")),
    [
      stdout.seen.find((line) => line.startsWith("session quiet started")),
      "session quiet stopped (server stopping)",
    ],
  );
  assert.deepEqual(stderr.seen, [], "nothing on stderr");
});

test("--verbose: the bridge's JSON log on stderr", async () => {
  const child = startServer(0, ["--verbose"]);
  const stdout = lines(child.stdout);
  const stderr = lines(child.stderr);
  await openSession(await stdout.next(/^Open http/), "loud");
  const created = JSON.parse(await stderr.next(/"event":"session_created"/)) as Record<
    string,
    unknown
  >;
  assert.equal(created.session, "loud");
  child.kill("SIGINT");
  assert.equal(await exited(child), 0);
  assert.ok(
    stdout.seen.every((line) => !line.startsWith("session")),
    "no quiet lines as well",
  );
});

test("a second demo on the same state: says where the first runs and exits, sharing nothing", async () => {
  const stateDir = mkdtempSync(join(tmpdir(), "pi-kit-demo-state-"));
  const first = startServer(0, [], stateDir);
  const open = (await lines(first.stdout).next(/^Open http/)).replace(/^Open /, "");
  const url = new URL(open).origin;
  try {
    const second = startServer(0, [], stateDir);
    const stderr = lines(second.stderr);
    const stdout = lines(second.stdout);
    assert.equal(await exited(second), 1);
    assert.deepEqual(stdout.seen, []);
    assert.equal(stderr.seen.length, 1, `stderr: ${stderr.seen.join("\n")}`);
    assert.equal(
      stderr.seen[0],
      `The pi-kit demo is already running at ${url} (pid ${first.pid}): open ${open}, or stop it first.`,
    );
  } finally {
    first.kill("SIGINT");
    assert.equal(await exited(first), 0);
  }
  // Stopped cleanly, the state is free again.
  const third = startServer(0, [], stateDir);
  await lines(third.stdout).next(/^Open http/);
  third.kill("SIGINT");
  assert.equal(await exited(third), 0);
});
