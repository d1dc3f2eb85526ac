/**
 * What `npm start` and `npm run dev` share as terminal programs: the `--verbose` flag, the token
 * kept across restarts, one clear line instead of a stack trace when a port is taken, and a
 * graceful stop on Ctrl-C.
 */
import { parseArgs } from "node:util";
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
  try {
    const demo = await startDemoServer({
      ...options,
      stateDir,
      token: persistentToken(stateDir),
      logger: log.logger,
    });
    return { demo, log };
  } catch (error) {
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
