/**
 * What `npm start` and `npm run dev` share as terminal programs: the `--verbose` flag, the token
 * kept across restarts, one clear line instead of a stack trace when a port is taken, and a
 * graceful stop on Ctrl-C.
 */
import { parseArgs } from "node:util";
import { SessionsDirInUseError } from "@pi-kit/bridge";
import { type DemoServer, type DemoServerOptions, startDemoServer } from "./demo-server.ts";
import { demoStateDir, persistentToken } from "./state-dir.ts";
import { type TerminalLog, terminalLog } from "./terminal-log.ts";

/** Exits with one line naming the port and the remedy, when `error` says the port is taken. */
export function exitIfPortBusy(error: unknown, port: number, remedy: string): void {
  const busy =
    (error as NodeJS.ErrnoException).code === "EADDRINUSE" || /already in use/.test(String(error));
  if (!busy) return;
  console.error(`Port ${port} is in use (another demo may be running): ${remedy}.`);
  process.exit(1);
}

/**
 * Exits with one line saying where the demo already runs, when `error` says another demo holds
 * this user's state: two demos on one state would run two pi processes on one conversation.
 */
export function exitIfAlreadyRunning(error: unknown, token: string): void {
  if (!(error instanceof SessionsDirInUseError)) return;
  const { url, pid } = error.holder;
  console.error(
    url === undefined
      ? `The pi-kit demo is already running (pid ${pid}) on this state directory: stop it first.`
      : `The pi-kit demo is already running at ${url} (pid ${pid}): open ${url}/#token=${token}, or stop it first.`,
  );
  process.exit(1);
}

/** A demo server started for a terminal, and its log. */
export interface TerminalDemo {
  readonly demo: DemoServer;
  readonly log: TerminalLog;
}

/** Starts the demo server for a terminal: quiet unless `--verbose`, with the kept token and sessions. */
export async function startForTerminal(
  options: Omit<DemoServerOptions, "token" | "logger"> & { readonly port: number },
): Promise<TerminalDemo> {
  const { values } = parseArgs({ options: { verbose: { type: "boolean", default: false } } });
  const log = terminalLog(values.verbose);
  const stateDir = demoStateDir();
  const token = persistentToken(stateDir);
  try {
    const demo = await startDemoServer({ ...options, stateDir, token, logger: log.logger });
    return { demo, log };
  } catch (error) {
    exitIfAlreadyRunning(error, token);
    exitIfPortBusy(error, options.port, "stop it, or choose another with PORT=<port>");
    throw error;
  }
}

/** On Ctrl-C or SIGTERM: notes the shutdown in the log, runs `stop` once, then exits. */
export function stopOnSignals(log: TerminalLog, stop: () => Promise<unknown>): void {
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log.shuttingDown();
      void stop().then(() => process.exit(0));
    });
  }
}
