/**
 * A real haproxy running the shipped deploy/haproxy/haproxy.cfg (backends from the environment, as
 * in production), whose log tells when it takes a bridge out of rotation or back in: the tests
 * wait on those lines instead of sleeping through health-check intervals.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { EventEmitter, once } from "node:events";
import { connect } from "node:net";
import process from "node:process";
import { fileURLToPath } from "node:url";

/** The shipped config, the one production runs. */
export const HAPROXY_CONFIG = fileURLToPath(
  new URL("../../../../deploy/haproxy/haproxy.cfg", import.meta.url),
);

/** Whether haproxy sends a server traffic (`UP`) or has taken it out of rotation (`DOWN`). */
export type ServerState = "UP" | "DOWN";

/** A running haproxy in front of bridges `bridge1..N`. */
export interface TestHaproxy {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /**
   * Resolves once haproxy's last word on server `bridge<n>` (1-based) is `state`: at once if it
   * already is (servers start `UP`), else when haproxy logs the change.
   */
  untilState(n: number, state: ServerState, timeoutMs?: number): Promise<void>;
  /** Stops haproxy and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts haproxy on `port` with one backend per entry of `backends` (`host:port`). */
export async function startHaproxy(
  port: number,
  backends: readonly string[],
): Promise<TestHaproxy> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    PIKIT_LISTEN: `127.0.0.1:${port}`,
  };
  backends.forEach((address, i) => {
    env[`PIKIT_BRIDGE_${i + 1}`] = address;
  });
  const child: ChildProcess = spawn("haproxy", ["-db", "-f", HAPROXY_CONFIG], {
    stdio: ["ignore", "pipe", "pipe"],
    env,
  });
  const changes = new EventEmitter();
  /** Each server's state as haproxy last logged it; absent means never logged (started `UP`). */
  const states = new Map<number, ServerState>();
  let log = "";
  const read = (chunk: string): void => {
    log += chunk;
    for (const match of chunk.matchAll(/Server bridges\/bridge(\d+) is (UP|DOWN)/g)) {
      const n = Number(match[1]);
      states.set(n, match[2] as ServerState);
      changes.emit(`${n}:${match[2]}`);
    }
  };
  child.stdout?.setEncoding("utf8").on("data", read);
  child.stderr?.setEncoding("utf8").on("data", read);
  const exited = once(child, "exit");
  const failed = exited.then(([code]) => {
    throw new Error(`haproxy exited (${code}): ${log}`);
  });
  failed.catch(() => {});
  // It logs nothing when it has bound its port, so poll the port (its servers start UP).
  const deadline = performance.now() + 10_000;
  while (!(await Promise.race([canConnect(port), failed]))) {
    if (performance.now() > deadline) throw new Error(`haproxy never listened: ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async untilState(n, state, timeoutMs = 30_000) {
      if ((states.get(n) ?? "UP") === state) return;
      const timer = new AbortController();
      const timeout = setTimeout(() => timer.abort(), timeoutMs);
      try {
        await Promise.race([once(changes, `${n}:${state}`, { signal: timer.signal }), failed]);
      } catch (error) {
        if (timer.signal.aborted) throw new Error(`haproxy never said bridge${n} is ${state}`);
        throw error;
      } finally {
        clearTimeout(timeout);
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Whether a TCP connection to the loopback `port` opens. */
function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
