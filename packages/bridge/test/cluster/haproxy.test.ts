/**
 * The shipped deploy/haproxy/haproxy.cfg, run by a real haproxy in front of two tiny HTTP
 * servers: a session's socket path and API paths always land on one backend, sessions spread over
 * both, a backend whose /readyz answers 503 is taken out (its sessions move, the others stay), and
 * its sessions come back to it when it is ready again.
 */
import assert from "node:assert/strict";
import { EventEmitter, once } from "node:events";
import { createServer, type Server } from "node:http";
import { after, before, test } from "node:test";
import { startHaproxy, type TestHaproxy } from "./haproxy-process.ts";
import { freePort } from "./redis-server.ts";

/** A backend that says its name, with a /readyz we can turn to 503, counting checks as events. */
class Backend extends EventEmitter {
  ready = true;
  /** Answers the check as a draining bridge does: 404 to `?drain=404`. */
  draining = false;
  checks = 0;
  /** The health check's path and query, as HAProxy sent it. */
  checkUrl = "";
  server!: Server;
  port = 0;

  readonly name: string;

  constructor(name: string) {
    super();
    this.name = name;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      if (req.url?.startsWith("/readyz")) {
        this.checks++;
        this.checkUrl = req.url;
        const drain = new URL(req.url, "http://x").searchParams.get("drain") === "404";
        res.writeHead(this.draining ? (drain ? 404 : 503) : this.ready ? 200 : 503).end();
        this.emit("check");
        return;
      }
      if (req.url?.endsWith("/stream")) {
        // A tunnel that stays open, as a proxied WebSocket does.
        res.writeHead(200, { "content-type": "text/plain" });
        res.write(`${this.name}\n`);
        return;
      }
      res.writeHead(200, { "content-type": "text/plain" }).end(this.name);
    });
    this.server.listen(0, "127.0.0.1");
    await once(this.server, "listening");
    this.port = (this.server.address() as { port: number }).port;
  }

  /** Resolves once `n` more health checks have been answered. */
  async nextChecks(n: number): Promise<void> {
    const target = this.checks + n;
    while (this.checks < target) await once(this, "check");
  }
}

const backends = [new Backend("one"), new Backend("two")];
let haproxy: TestHaproxy;
let base = "";

before(async () => {
  for (const b of backends) await b.start();
  const checked = Promise.all(backends.map((b) => b.nextChecks(2)));
  haproxy = await startHaproxy(
    await freePort(),
    backends.map((b) => `127.0.0.1:${b.port}`),
  );
  // Up once it has checked both backends twice (rise 2).
  await checked;
  base = haproxy.url;
});
after(async () => {
  await haproxy.stop();
  for (const b of backends) {
    b.server.closeAllConnections();
    b.server.close();
  }
});

/** Which backend answered `path` through HAProxy. */
async function landing(path: string): Promise<string> {
  const response = await fetch(`${base}${path}`);
  assert.equal(response.status, 200, path);
  return response.text();
}

const names = Array.from({ length: 40 }, (_, i) => `session-${i}`);
/** Each session's paths: its socket, its API resource and an action on it. */
const pathsOf = (name: string) => [
  `/sessions/${name}/ws`,
  `/api/sessions/${name}`,
  `/api/sessions/${name}/stop`,
  `/sessions/${name}/ws?token=x${name}`,
];

/** Where each session lands, checking every one of its paths lands there, twice. */
async function placement(): Promise<Map<string, string>> {
  const placed = new Map<string, string>();
  for (const name of names) {
    const landed = new Set<string>();
    for (let round = 0; round < 2; round++) {
      for (const path of pathsOf(name)) landed.add(await landing(path));
    }
    assert.equal(landed.size, 1, `${name}: all its paths on one backend, got ${[...landed]}`);
    placed.set(name, [...landed][0] as string);
  }
  return placed;
}

let initial: Map<string, string>;

test("haproxy.cfg: one session's socket and API paths always land on the same backend, and sessions spread over both", async () => {
  initial = await placement();
  const counts = { one: 0, two: 0 };
  for (const b of initial.values()) counts[b as "one" | "two"]++;
  assert.ok(counts.one > 5 && counts.two > 5, `spread ${JSON.stringify(counts)}`);
  // Requests that name no session still get served.
  assert.match(await landing("/"), /^(one|two)$/);
  assert.match(await landing("/api/sessions"), /^(one|two)$/);
});

test("haproxy.cfg: a backend whose /readyz answers 503 is taken out; only its sessions move, and come back when it is ready", async () => {
  const [one] = backends as [Backend, Backend];
  one.ready = false;
  // fall 2: down after two failed checks; a third check proves HAProxy has acted on the second.
  await one.nextChecks(3);
  const during = await placement();
  for (const [name, b] of initial) {
    assert.equal(during.get(name), "two", `${name} (was on ${b}) is on the ready backend`);
  }
  one.ready = true;
  await one.nextChecks(3);
  const back = await placement();
  assert.deepEqual(
    [...back],
    [...initial],
    "consistent hashing gives each session its old backend",
  );
});

/** Opens a long response through HAProxy; resolves with the backend's name and when it is cut. */
async function tunnel(name: string): Promise<{ backend: string; cut: Promise<void> }> {
  const response = await fetch(`${base}/api/sessions/${name}/stream`);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const first = await reader.read();
  const backend = new TextDecoder().decode(first.value).trim();
  const cut = (async () => {
    try {
      while (!(await reader.read()).done);
    } catch {
      // Cut mid-body: what shutdown-sessions does.
    }
  })();
  return { backend, cut };
}

test("haproxy.cfg: a backend marked down has its open tunnels cut at once; a draining one (404) keeps them and gets no new ones", async () => {
  const [one] = backends as [Backend, Backend];
  const onOne = names.filter((name) => initial.get(name) === "one");
  const [first, second] = onOne as [string, string];
  assert.equal(one.checkUrl, "/readyz?drain=404", "the check asks a draining bridge for 404");

  // Draining: no new sessions, the open tunnel stays.
  const kept = await tunnel(first);
  assert.equal(kept.backend, "one");
  let keptCut = false;
  void kept.cut.then(() => {
    keptCut = true;
  });
  one.draining = true;
  await one.nextChecks(3);
  assert.equal(
    await landing(`/api/sessions/${second}`),
    "two",
    "a draining backend gets no new work",
  );
  assert.equal(keptCut, false, "its open tunnel is kept");
  one.draining = false;
  await one.nextChecks(3);
  assert.equal(await landing(`/api/sessions/${second}`), "one");

  // Marked down (its /readyz fails, as a node without Redis; a frozen one's check times out):
  // every tunnel to it is cut, and its clients reconnect elsewhere.
  one.ready = false;
  await haproxy.untilState(1, "DOWN");
  await Promise.race([
    kept.cut,
    one.nextChecks(4).then(() => {
      throw new Error("the tunnel outlived the mark-down by four checks");
    }),
  ]);
  one.ready = true;
  await one.nextChecks(3);
});
