/**
 * The runtime matrix's bridges: the CLI started on Node 20, Deno or Bun as a user starts it
 * (`node --import tsx`, `deno run -A`, `bun`), serving pi through a {@link CuttingProxy}. Used by
 * the matrix test and by the client's Chromium runner (its WTR plugin).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { type PiCommand, resolveNode20, sessionHostOptions } from "@pi-kit/testing";
import { generateToken } from "../../src/security/token.ts";
import { type CuttingProxy, startCuttingProxy } from "./cutting-proxy.ts";

/** The repository's root. */
export const root = fileURLToPath(new URL("../../../..", import.meta.url));
const cli = join(root, "packages/bridge/src/cli.ts");
export const deno = join(root, "node_modules/.bin/deno");
export const bun = join(root, "node_modules/.bin/bun");
/** Where the proxy cuts a reconnecting client: in the middle of `[[slow 100ms x 12]]`'s answer. */
export const CUT_AT = "tick 3 ";

/** How each runtime runs the bridge CLI. */
export const BRIDGE_RUNTIMES = {
  node: (): [string, string[]] => [
    resolveNode20(),
    ["--conditions=@pi-kit/source", "--import", "tsx", cli],
  ],
  deno: (): [string, string[]] => [deno, ["run", "-A", cli]],
  bun: (): [string, string[]] => [bun, ["--conditions", "@pi-kit/source", cli]],
} as const;
/** A runtime the bridge CLI runs on. */
export type BridgeRuntime = keyof typeof BRIDGE_RUNTIMES;

/** A running command's output and exit. */
export interface Run {
  readonly child: ChildProcess;
  stdout(): string;
  readonly exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** Runs `command` in the repository's root and collects what it prints. */
export function run(
  command: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Run {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...(process.env as Record<string, string>), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout?.setEncoding("utf8").on("data", (t: string) => {
    out += t;
    child.emit("output");
  });
  child.stderr?.setEncoding("utf8").on("data", (t: string) => {
    err += t;
  });
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once("close", (code) => resolve({ code, stdout: out, stderr: err })),
  );
  return { child, stdout: () => out, exited };
}

/** A bridge CLI behind its cutting proxy. */
export interface MatrixBridge {
  readonly runtime: BridgeRuntime;
  readonly proxy: CuttingProxy;
  readonly token: string;
  /** Stops the CLI (SIGTERM: pi stops gracefully) and the proxy, and removes its state. */
  stop(): Promise<void>;
}

/**
 * Starts the CLI on `runtime` serving `pi`, with a state directory and a token of its own, and
 * `options` (such as `["--origin", "*"]` for a browser).
 */
export async function startMatrixBridge(
  runtime: BridgeRuntime,
  pi: PiCommand,
  options: readonly string[] = [],
): Promise<MatrixBridge> {
  const host = sessionHostOptions(pi);
  const token = generateToken();
  const state = mkdtempSync(join(tmpdir(), `pi-kit-matrix-${runtime}-`));
  const [command, args] = BRIDGE_RUNTIMES[runtime]();
  const argv = [...args, "--port", "0", ...options, "--", host.pi.command, ...host.pi.args];
  const started = run(command, argv, {
    ...host.pi.env,
    XDG_STATE_HOME: state,
    PI_KIT_BRIDGE_TOKEN: token,
  });
  const url = await new Promise<string>((resolve, reject) => {
    const check = (): void => {
      const match = /listening on (\S+)\n/.exec(started.stdout());
      if (match !== null) resolve(match[1] as string);
    };
    started.child.on("output", check);
    void started.exited.then(({ stderr }) =>
      reject(new Error(`the bridge CLI on ${runtime} exited:\n${stderr}`)),
    );
    check();
  });
  const proxy = await startCuttingProxy(new URL(url), CUT_AT);
  return {
    runtime,
    proxy,
    token,
    async stop() {
      await proxy.close();
      started.child.kill("SIGTERM");
      await started.exited;
      rmSync(state, { recursive: true, force: true });
    },
  };
}
