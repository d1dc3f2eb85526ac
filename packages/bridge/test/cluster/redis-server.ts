/**
 * A real redis-server for the cluster tests, on a free loopback port, with nothing saved to disk.
 * Ready when it logs that it accepts connections (and answers PING): no sleeps.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import process from "node:process";

/** A redis-server the test started. */
export interface TestRedis {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** The server's process. */
  readonly child: ChildProcess;
  /** Freezes the server (SIGSTOP): connections stay open and nothing answers. */
  pause(): void;
  /** Thaws a paused server (SIGCONT). */
  resume(): void;
  /** Stops the server and waits for it to exit. */
  stop(): Promise<void>;
}

/** A loopback port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, "close");
  return port;
}

/** Starts redis-server on a free loopback port and waits until it accepts connections. */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let log = "";
  await new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${log}`)));
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      log += chunk;
      if (log.includes("Ready to accept connections")) resolve();
    });
  });
  child.stdout?.resume();
  child.removeAllListeners("exit");
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    url: `redis://127.0.0.1:${port}`,
    child,
    pause: () => process.kill(child.pid as number, "SIGSTOP"),
    resume: () => process.kill(child.pid as number, "SIGCONT"),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        process.kill(child.pid as number, "SIGCONT");
        child.kill("SIGKILL");
      }
      await exited;
    },
  };
}
