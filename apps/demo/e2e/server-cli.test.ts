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

/** The demo server as `npm start` runs it, with its own state dir. */
function startServer(
  port: number,
  args: readonly string[] = [],
): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(
    process.execPath,
    ["--conditions=@pi-kit/source", "--import", "tsx", "server/main.ts", ...args],
    {
      cwd: demoDir,
      env: {
        ...process.env,
        PORT: String(port),
        PI_KIT_DEMO_STATE_DIR: mkdtempSync(join(tmpdir(), "pi-kit-demo-state-")),
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

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
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
