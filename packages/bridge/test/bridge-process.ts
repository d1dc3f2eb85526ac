/**
 * The bridge's CLI as a child process on the runtime the tests run on, for tests that kill the
 * bridge (SIGKILL, SIGINT) and start it again on the same sessions directory.
 */
import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { type PiCommand, sessionHostOptions } from "@pi-kit/testing";
import { runtime } from "./helpers.ts";

const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const denoConfig = fileURLToPath(new URL("../../../deno.json", import.meta.url));

/** A bridge CLI process. */
export interface BridgeProcess {
  readonly url: string;
  readonly token: string;
  readonly pid: number;
  /** Settles when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  /** What it wrote to stderr (its JSON log lines). */
  stderr(): string;
  kill(signal: "SIGKILL" | "SIGINT" | "SIGTERM"): void;
}

/** Options of {@link spawnBridge}. */
export interface BridgeProcessOptions {
  readonly pi: PiCommand;
  readonly sessionsDir: string;
  readonly token: string;
  /** `--grace-ms`. */
  readonly graceMs?: number;
  /** `--port` (default 0: a free one); a cluster node keeps its port across restarts. */
  readonly port?: number;
  /** More bridge options, before the `--` (for example the cluster flags). */
  readonly args?: readonly string[];
}

/** How this runtime runs a TypeScript entry point with the workspace's sources. */
function command(): { file: string; args: string[] } {
  if (runtime === "deno") {
    const deno = (globalThis as unknown as { Deno: { execPath(): string } }).Deno;
    return { file: deno.execPath(), args: ["run", "-A", `--config=${denoConfig}`, cli] };
  }
  if (runtime === "bun")
    return { file: process.execPath, args: ["--conditions", "@pi-kit/source", cli] };
  // The child's working directory is pi's workspace, so tsx is found by path.
  const tsx = fileURLToPath(import.meta.resolve("tsx"));
  return { file: process.execPath, args: ["--conditions=@pi-kit/source", "--import", tsx, cli] };
}

/** Starts the bridge CLI serving `pi` (with its environment and workspace) on a free port. */
export async function spawnBridge(options: BridgeProcessOptions): Promise<BridgeProcess> {
  const { pi } = sessionHostOptions(options.pi);
  const { file, args } = command();
  const child: ChildProcess = spawn(
    file,
    [
      ...args,
      "--port",
      String(options.port ?? 0),
      "--sessions-dir",
      options.sessionsDir,
      ...(options.graceMs === undefined ? [] : ["--grace-ms", String(options.graceMs)]),
      ...(options.args ?? []),
      "--",
      pi.command,
      ...pi.args,
    ],
    {
      cwd: pi.cwd,
      env: { ...pi.env, PI_KIT_BRIDGE_TOKEN: options.token },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1] as string);
    });
    void exited.then(({ code }) => reject(new Error(`the bridge exited (${code}): ${stderr}`)));
  });
  return {
    url,
    token: options.token,
    pid: child.pid as number,
    exited,
    stderr: () => stderr,
    kill: (signal) => {
      child.kill(signal);
    },
  };
}
