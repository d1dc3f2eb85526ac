#!/usr/bin/env node
/**
 * @module
 * `pi-kit-bridge`: serves the bridge on the current runtime (Node, Deno or Bun).
 *
 * ```sh
 * pi-kit-bridge --port 8787 --origin http://localhost:5173 --deny bash -- pi --mode rpc
 * ```
 *
 * Prints the URL and the token once on stdout; logs go to stderr as JSON lines, never the token.
 * SIGINT and SIGTERM stop every pi gracefully (stdin first) before exiting.
 */
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import process from "node:process";
import type { BridgeLimits } from "./bridge.ts";
import { jsonLogger } from "./logger.ts";
import type { ServeBridgeOptions, ServedBridge } from "./serve-options.ts";

const USAGE = `Usage: pi-kit-bridge [options] -- <pi command> [pi args...]

Options:
  --port <n>            Port (default 8787; 0 picks a free one)
  --host <addr>         Interface (default 127.0.0.1; anything else exposes pi to the network)
  --token <t>           Token (default: $PI_KIT_BRIDGE_TOKEN, else a generated one, printed once)
  --origin <origin>     Allow a browser origin (repeatable; "*" allows any)
  --allow <types>       Only these record types (comma-separated, repeatable)
  --deny <types>        Refuse these record types, e.g. bash (comma-separated, repeatable)
  --sessions-dir <dir>  Where session directories go (default: <tmp>/pi-kit-bridge/sessions)
  --max-sessions <n>    Session cap (default 16)
  --grace-ms <n>        Keep pi running this long without a client (default 30000)
  --idle-ms <n>         Reap attached sessions idle this long; 0 = never (default 3600000)
  --high-water-mark <n> Socket bytes before reading pi pauses (default 1048576)
  --no-auto-create      Refuse sockets to unknown sessions (404, or close 4404); POST /api/sessions creates them
  --help                Show this help

The pi command must run RPC mode, e.g. -- pi --mode rpc. Clients never choose it.`;

/** The signals that stop the bridge gracefully: Ctrl-C, a service manager, a closed terminal. */
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** Parsed command line. */
interface CliArgs {
  readonly serve: ServeBridgeOptions;
}

/** Parses argv (without the runtime and script); throws an Error with a message for the user. */
export function parseArgs(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): CliArgs {
  const dash = argv.indexOf("--");
  const own = dash === -1 ? argv : argv.slice(0, dash);
  const piCommand = dash === -1 ? [] : argv.slice(dash + 1);
  const origins: string[] = [];
  const allow: string[] = [];
  const deny: string[] = [];
  const limits: { -readonly [K in keyof BridgeLimits]: BridgeLimits[K] } = {};
  let port: number | undefined;
  let hostname: string | undefined;
  let token = env.PI_KIT_BRIDGE_TOKEN;
  let sessionsDir: string | undefined;
  let autoCreate = true;
  for (let i = 0; i < own.length; i++) {
    const flag = own[i] as string;
    const value = (): string => {
      const next = own[++i];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    const number = (): number => {
      const text = value();
      const n = Number(text);
      if (!Number.isInteger(n) || n < 0)
        throw new Error(`${flag} needs a whole number, got ${text}`);
      return n;
    };
    const list = (): string[] =>
      value()
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    switch (flag) {
      case "--port":
        port = number();
        break;
      case "--host":
        hostname = value();
        break;
      case "--token":
        token = value();
        break;
      case "--origin":
        origins.push(value());
        break;
      case "--allow":
        allow.push(...list());
        break;
      case "--deny":
        deny.push(...list());
        break;
      case "--sessions-dir":
        sessionsDir = resolve(value());
        break;
      case "--max-sessions":
        limits.maxSessions = number();
        break;
      case "--grace-ms":
        limits.graceMs = number();
        break;
      case "--idle-ms":
        limits.idleMs = number();
        break;
      case "--high-water-mark":
        limits.highWaterMark = number();
        break;
      case "--no-auto-create":
        autoCreate = false;
        break;
      default:
        throw new Error(`Unknown option ${flag}`);
    }
  }
  const [command, ...args] = piCommand;
  if (command === undefined) throw new Error("Give the pi command after --, e.g. -- pi --mode rpc");
  return {
    serve: {
      pi: { command, args },
      ...(token === undefined || token === "" ? {} : { token }),
      sessionsDir: sessionsDir ?? join(tmpdir(), "pi-kit-bridge", "sessions"),
      origins,
      policy: { ...(allow.length > 0 ? { allow } : {}), deny },
      limits,
      autoCreate,
      ...(port === undefined ? {} : { port }),
      ...(hostname === undefined ? {} : { hostname }),
    },
  };
}

/** Loads the adapter of the runtime this runs on. */
async function adapter(): Promise<(options: ServeBridgeOptions) => Promise<ServedBridge>> {
  const g = globalThis as { Deno?: unknown; Bun?: unknown };
  if (g.Bun !== undefined) return (await import("./adapters/bun.ts")).serveBridge;
  if (g.Deno !== undefined) return (await import("./adapters/deno.ts")).serveBridge;
  return (await import("./adapters/node.ts")).serveBridge;
}

/** Runs the CLI; resolves when the bridge has stopped after a signal. */
export async function main(argv: readonly string[]): Promise<void> {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(USAGE);
    return;
  }
  let parsed: CliArgs;
  try {
    parsed = parseArgs(argv, process.env);
  } catch (error) {
    console.error(`pi-kit-bridge: ${(error as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const logger = jsonLogger();
  const serve = await adapter();
  const served = await serve({ ...parsed.serve, logger });
  logger({ event: "bridge_started", url: served.url, sessionsDir: parsed.serve.sessionsDir });
  // The one place the token is shown: stdout, once, for the person who started the bridge.
  console.log(`pi-kit bridge listening on ${served.url}\ntoken: ${served.token}`);
  await new Promise<void>((done) => {
    let stopping = false;
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      served.close().then(done, done);
    };
    for (const signal of STOP_SIGNALS) process.once(signal, stop);
  });
}

if ((import.meta as { main?: boolean }).main ?? isEntry()) await main(process.argv.slice(2));

/** Whether this module was run directly on Node (which has no `import.meta.main` before 24). */
function isEntry(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  return (
    import.meta.url === new URL(`file://${resolve(script)}`).href ||
    script.endsWith("pi-kit-bridge")
  );
}
