/**
 * A live bridge cluster on loopback, for the chaos tests and the cluster benchmarks: one
 * redis-server, N bridge CLI processes in cluster mode on fixed ports sharing one sessions
 * directory (each with its own index cache), and haproxy running the shipped
 * deploy/haproxy/haproxy.cfg in front of them, all serving real pi 1.x on the scripted model.
 * A node can be crashed (SIGKILL of the bridge and its pis, as when its machine dies), frozen
 * (SIGSTOP of the same tree, as a paused VM), drained (SIGTERM) and started again on its port.
 * `close()` stops everything, whatever state the test left it in, and checks no pi is left.
 * Node only: it spawns the bridge with tsx and reads /proc.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { PiClient } from "@pi-kit/client";
import { createNodeWebSocketTransport } from "@pi-kit/client/ws-node";
import {
  listProcesses,
  type ModelServer,
  type PiCommand,
  piCommand,
  type SessionHostOptions,
  sessionHostOptions,
  startModelServer,
  waitForNoProcesses,
} from "@pi-kit/testing";
import { DEFAULT_LEASE_TTL_MS } from "../../src/cluster/cluster-settings.ts";
import { generateToken } from "../../src/index.ts";
import { type BridgeProcess, spawnBridge } from "../bridge-process.ts";
import { startHaproxy, type TestHaproxy } from "./haproxy-process.ts";
import { processTree, type SessionPi, sessionPis } from "./pi-audit.ts";
import { freePort, startRedis, type TestRedis } from "./redis-server.ts";

/** Options of {@link startCluster}. */
export interface ClusterOptions {
  /** How many bridges (default 3; the shipped haproxy.cfg has lines for up to 6). */
  readonly nodes?: number;
  /**
   * `--lease-ttl-ms` (default 3000: failovers in tests take seconds, not tens of them, and a
   * healthy node on a loaded 2-core machine does not lose its lease to a stall of its event loop);
   * `"default"` passes none, so the bridges run at their default settings (benchmarks).
   */
  readonly leaseTtlMs?: number | "default";
  /** `--drain-timeout-ms` (default 5000). */
  readonly drainTimeoutMs?: number;
  /** `--grace-ms`: how long pi outlives its last client (default 30000). */
  readonly graceMs?: number;
}

/** One bridge of the cluster, on a port it keeps across restarts (haproxy's `bridge<n>`). */
export interface ClusterNode {
  /** 1-based: haproxy's server `bridge<n>`. */
  readonly n: number;
  /** `http://127.0.0.1:<port>`: the node's own URL (its `--node-url`). */
  readonly url: string;
  /** The running bridge process, if any. */
  readonly process: BridgeProcess | undefined;
  /** The node id its responses name (`Pi-Kit-Node`), from its last start. */
  readonly id: string | undefined;
  /** Starts the bridge on its port and waits until its `/readyz` answers 200. */
  start(): Promise<void>;
  /** SIGKILLs the bridge and every process it started, and waits for the bridge to exit. */
  crash(): Promise<void>;
  /** SIGSTOPs the bridge and every process it started; answers the frozen pids. */
  freeze(): number[];
  /** SIGCONTs what {@link ClusterNode.freeze} stopped. */
  thaw(pids: readonly number[]): void;
  /** SIGTERM (a drain); resolves with how it exited. */
  terminate(): Promise<{ code: number | null; signal: string | null }>;
  /** The status of its `/readyz` (0 when nothing answers). */
  readyStatus(): Promise<number>;
}

/** A running cluster. */
export interface Cluster {
  readonly redis: TestRedis;
  readonly haproxy: TestHaproxy;
  readonly model: ModelServer;
  readonly pi: PiCommand;
  /** pi as the bridges run it, and the shared sessions directory. */
  readonly host: SessionHostOptions;
  readonly sessionsDir: string;
  readonly token: string;
  /** The lease TTL the bridges run with. */
  readonly leaseTtlMs: number;
  readonly drainTimeoutMs: number;
  readonly nodes: readonly ClusterNode[];
  /** A session's socket URL through haproxy. */
  wsUrl(name: string): string;
  /** A `PiClient` on session `name` through haproxy, reconnecting quickly as a browser would. */
  connect(name: string): Promise<PiClient>;
  /** Every connection state the clients of {@link Cluster.connect} went through, timestamped, for failure reports. */
  readonly clientStates: readonly string[];
  /** The session's live pis right now (bridges' logs for the session, /proc for liveness). */
  pisOf(name: string): SessionPi[];
  /** The node whose bridge runs the session's (one) pi, if one does. */
  ownerOf(name: string): ClusterNode | undefined;
  /**
   * Waits until exactly one running pi (stopped ones, of a frozen node, do not count) runs the
   * session under a node satisfying `accept`; answers both.
   */
  waitOwner(
    name: string,
    accept?: (node: ClusterNode) => boolean,
    timeoutMs?: number,
  ): Promise<{ node: ClusterNode; pi: SessionPi }>;
  /** Stops everything and checks no pi outlived it. */
  close(): Promise<void>;
}

/** Polls `check` every 50 ms until it answers a value; rejects after `timeoutMs`. */
export async function poll<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Sends `signal` to each pid still alive. */
function signalAll(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone already.
    }
  }
}

/** Starts redis, the bridges and haproxy; on any failure, stops what did start. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const ttlArg = options.leaseTtlMs === "default" ? undefined : (options.leaseTtlMs ?? 3000);
  const leaseTtlMs = ttlArg ?? DEFAULT_LEASE_TTL_MS;
  const drainTimeoutMs = options.drainTimeoutMs ?? 5000;
  const model = await startModelServer();
  const pi = piCommand({ version: "1", baseUrl: model.baseUrl });
  const host = sessionHostOptions(pi);
  const sessionsDir = host.sessionsDir;
  mkdirSync(sessionsDir, { recursive: true, mode: 0o700 });
  const token = generateToken();
  const stops: (() => Promise<void>)[] = [
    async () => {
      await model.close();
      pi.dispose();
    },
  ];
  const stopAll = async (): Promise<void> => {
    for (const stop of stops.reverse()) await stop().catch(() => {});
  };
  try {
    const redis = await startRedis();
    stops.push(() => redis.stop());
    const ports: number[] = [];
    for (let i = 0; i < (options.nodes ?? 3); i++) ports.push(await freePort());
    // Every bridge process ever started: their logs name the pis they started.
    const started: BridgeProcess[] = [];
    const nodes = ports.map((port, i) =>
      clusterNode(i + 1, port, started, {
        pi,
        sessionsDir,
        token,
        graceMs: options.graceMs,
        args: [
          "--cluster",
          redis.url,
          "--node-url",
          `http://127.0.0.1:${port}`,
          ...(ttlArg === undefined ? [] : ["--lease-ttl-ms", String(ttlArg)]),
          "--drain-timeout-ms",
          String(drainTimeoutMs),
          "--index-dir",
          join(pi.tempRoot, `index-${i + 1}`),
        ],
      }),
    );
    stops.push(async () => {
      for (const node of nodes) await node.crash();
    });
    await Promise.all(nodes.map((node) => node.start()));
    const haproxy = await startHaproxy(
      await freePort(),
      ports.map((port) => `127.0.0.1:${port}`),
    );
    stops.push(() => haproxy.stop());
    const wsBase = haproxy.url.replace(/^http/, "ws");
    const clientStates: string[] = [];
    const pisOf = (name: string): SessionPi[] =>
      sessionPis(started).filter((p) => p.session === name);
    const nodeOfPi = (p: SessionPi): ClusterNode | undefined =>
      nodes.find((node) => node.process?.pid === p.bridgePid);
    return {
      redis,
      haproxy,
      model,
      pi,
      host,
      sessionsDir,
      token,
      leaseTtlMs,
      drainTimeoutMs,
      nodes,
      wsUrl: (name) => `${wsBase}/sessions/${name}/ws`,
      clientStates,
      async connect(name) {
        const transport = await createNodeWebSocketTransport({
          url: `${wsBase}/sessions/${name}/ws`,
          token,
          reconnect: { initialDelayMs: 50, maxDelayMs: 300 },
        });
        transport.addEventListener("statechange", () =>
          clientStates.push(
            `${new Date().toISOString()} ${name}: ${JSON.stringify(transport.state)}`,
          ),
        );
        return PiClient.connect(transport, { resync: true });
      },
      pisOf,
      ownerOf(name) {
        const [only, ...more] = pisOf(name);
        return only === undefined || more.length > 0 ? undefined : nodeOfPi(only);
      },
      waitOwner(name, accept = () => true, timeoutMs = 30_000) {
        return poll(
          `one running pi on ${name}`,
          () => {
            const [only, ...more] = pisOf(name).filter((p) => p.state !== "T");
            const node = only === undefined ? undefined : nodeOfPi(only);
            return node && only && more.length === 0 && accept(node)
              ? { node, pi: only }
              : undefined;
          },
          timeoutMs,
        );
      },
      async close() {
        await stopAll();
        // The bridges, and every pi any of them started (from their logs, while alive).
        const ours = new Set(started.map((b) => b.pid));
        for (const p of sessionPis(started)) ours.add(p.pid);
        const left = await waitForNoProcesses((entry) => ours.has(entry.pid), 10_000);
        if (left.length > 0) {
          signalAll(
            left.map((e) => e.pid),
            "SIGKILL",
          );
          throw new Error(`processes outlived the cluster: ${left.map((e) => e.pid).join(", ")}`);
        }
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** What every start of a node passes to the bridge CLI. */
type NodeSpawn = Omit<Parameters<typeof spawnBridge>[0], "port" | "graceMs"> & {
  readonly graceMs: number | undefined;
};

function clusterNode(
  n: number,
  port: number,
  started: BridgeProcess[],
  spawnOptions: NodeSpawn,
): ClusterNode {
  const url = `http://127.0.0.1:${port}`;
  let bridge: BridgeProcess | undefined;
  let id: string | undefined;
  const readyz = async (): Promise<Response | undefined> => {
    try {
      return await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
    } catch {
      return undefined;
    }
  };
  return {
    n,
    url,
    get process() {
      return bridge;
    },
    get id() {
      return id;
    },
    async start() {
      const { graceMs, ...rest } = spawnOptions;
      bridge = await spawnBridge({ ...rest, port, ...(graceMs === undefined ? {} : { graceMs }) });
      started.push(bridge);
      const ready = await poll(`bridge${n} ready`, async () => {
        const response = await readyz();
        await response?.body?.cancel();
        return response?.status === 200 ? response : undefined;
      });
      id = ready.headers.get("pi-kit-node") ?? undefined;
    },
    async crash() {
      if (bridge === undefined) return;
      const tree = processTree(bridge.pid, listProcesses());
      signalAll(tree, "SIGKILL");
      // A stopped process dies of SIGKILL too, but let it run its death.
      signalAll(tree, "SIGCONT");
      await bridge.exited;
      bridge = undefined;
    },
    freeze() {
      if (bridge === undefined) throw new Error(`bridge${n} is not running`);
      const tree = processTree(bridge.pid, listProcesses());
      signalAll(tree, "SIGSTOP");
      return tree;
    },
    thaw(pids) {
      signalAll([...pids].reverse(), "SIGCONT");
    },
    async terminate() {
      if (bridge === undefined) throw new Error(`bridge${n} is not running`);
      const running = bridge;
      running.kill("SIGTERM");
      const exit = await running.exited;
      bridge = undefined;
      return exit;
    },
    async readyStatus() {
      const response = await readyz();
      await response?.body?.cancel();
      return response?.status ?? 0;
    },
  };
}
