#!/usr/bin/env node
/**
 * @module
 * The CLI: serves the bridge on the current runtime (Node, Deno or Bun).
 *
 * ```sh
 * npx @pi-kit/bridge --port 8787 --origin http://localhost:5173 --deny bash -- pi --mode rpc
 * npx @pi-kit/bridge --scripted   # real pi on the scripted model of @pi-kit/testing: no API key
 * npx @pi-kit/bridge cluster status --url http://10.0.0.11:8787   # a cluster's leased sessions
 * ```
 *
 * Prints the URL, and a generated token once, on stdout; logs go to stderr as JSON lines, never
 * with the token. SIGINT, SIGTERM and SIGHUP stop every pi gracefully (stdin first) before
 * exiting. A configuration mistake is one line on stderr and exit code 2.
 */
import { resolve } from "node:path";
import process from "node:process";
import type { ServeBridgeOptions, ServedBridge } from "./adapters/serve-options.ts";
import { type CliArgs, parseArgs, USAGE, UsageError } from "./cli/parse-args.ts";
import type { ScriptedPi } from "./cli/scripted-pi.ts";
import { BridgeError, BridgeErrorCode } from "./errors/bridge-error.ts";
import { jsonLogger } from "./logging/logger.ts";
import type { PiProcessSpec } from "./sessions/session-settings.ts";

export { type CliArgs, isLoopback, parseArgs, type TokenSource } from "./cli/parse-args.ts";

/** The signals that stop the bridge gracefully: Ctrl-C, a service manager, a closed terminal. */
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** Loads the adapter of the runtime this runs on. */
async function adapter(): Promise<(options: ServeBridgeOptions) => Promise<ServedBridge>> {
  const g = globalThis as { Deno?: unknown; Bun?: unknown };
  if (g.Bun !== undefined) return (await import("./adapters/bun.ts")).serveBridge;
  if (g.Deno !== undefined) return (await import("./adapters/deno.ts")).serveBridge;
  return (await import("./adapters/node.ts")).serveBridge;
}

/** Ends the CLI with one line on stderr. */
function fail(message: string, exitCode: 1 | 2): void {
  console.error(`pi-kit-bridge: ${message}${exitCode === 2 ? " (see --help)" : ""}`);
  process.exitCode = exitCode;
}

/** Runs the CLI; resolves when the bridge has stopped after a signal, or failed to start. */
export async function main(argv: readonly string[]): Promise<void> {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(USAGE);
    return;
  }
  if (argv[0] === "cluster") return clusterCommand(argv.slice(1));
  let parsed: CliArgs;
  try {
    parsed = parseArgs(argv, process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return fail(error.message, 2);
  }
  // Handled from the start: a signal while the bridge starts stops it as soon as it is up.
  let served: ServedBridge | undefined;
  let scripted: ScriptedPi | undefined;
  let signalled = false;
  let closing: Promise<void> | undefined;
  let stopped!: () => void;
  const done = new Promise<void>((resolve) => (stopped = resolve));
  const stop = (): void => {
    signalled = true;
    if (served === undefined || closing !== undefined) return;
    // The scripted model outlives the bridge's pi processes, which are still answering.
    closing = served.close().finally(() => scripted?.close());
    closing.then(stopped, stopped);
  };
  for (const signal of STOP_SIGNALS) process.once(signal, stop);
  // Whatever pi and the bridge write (transcripts, indexes) is for this user's eyes only: 0600.
  process.umask(0o077);
  const logger = jsonLogger();
  for (const warning of parsed.warnings) logger({ event: "config_warning", message: warning });
  let pi: PiProcessSpec;
  let sessionsDir: string;
  try {
    if (parsed.pi === "scripted") {
      scripted = await (await import("./cli/scripted-pi.ts")).startScriptedPi();
      pi = scripted.pi;
      sessionsDir = parsed.serve.sessionsDir ?? scripted.sessionsDir;
    } else {
      pi = parsed.pi;
      sessionsDir = parsed.serve.sessionsDir as string;
    }
    served = await (await adapter())({ ...parsed.serve, pi, sessionsDir, logger });
  } catch (error) {
    await scripted?.close();
    if (error instanceof BridgeError && error.code === BridgeErrorCode.InvalidOptions)
      return fail(error.message, 2);
    return fail(`cannot start: ${(error as Error).message}`, 1);
  }
  logger({ event: "bridge_started", url: served.url, sessionsDir });
  // The one place a token is shown: stdout, once, and only one the bridge made up itself.
  const token = parsed.tokenSource === "generated" ? `\ntoken: ${served.token}` : "";
  const model = scripted === undefined ? "" : "\nmodel: scripted (no API key; it echoes prompts)";
  console.log(`pi-kit bridge listening on ${served.url}${token}${model}`);
  if (signalled) stop();
  await done;
}

/** `cluster status`: prints the cluster's leased sessions as a table (exit 1 if the node says no). */
async function clusterCommand(argv: readonly string[]): Promise<void> {
  if (argv[0] !== "status")
    return fail(`unknown command: cluster ${argv[0] ?? ""} (the one there is: cluster status)`, 2);
  const { clusterStatus, parseClusterStatusArgs } = await import("./cli/cluster-status.ts");
  let args: ReturnType<typeof parseClusterStatusArgs>;
  try {
    args = parseClusterStatusArgs(argv.slice(1), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return fail(error.message, 2);
  }
  for (const warning of args.warnings) console.error(`pi-kit-bridge: ${warning}`);
  try {
    console.log(await clusterStatus(args));
  } catch (error) {
    return fail((error as Error).message, 1);
  }
}

if ((import.meta as { main?: boolean }).main ?? isEntry()) await main(process.argv.slice(2));

/** Whether this module was run directly on Node (which has no `import.meta.main` before 24). */
function isEntry(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  // The package's bin (bin/pi-kit-bridge.js) imports this module and calls main() itself.
  return import.meta.url === new URL(`file://${resolve(script)}`).href;
}
