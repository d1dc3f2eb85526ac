#!/usr/bin/env node
/**
 * @module
 * `pi-kit-acp`: the ACP agent on stdin/stdout, as editors start it. Logs go to stderr (stdout is
 * the protocol); no failure of one request ends the process, only the editor closing stdin does.
 */
import { readFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import { bridgeBackend } from "./backend/bridge-backend.ts";
import { localBackend } from "./backend/local-backend.ts";
import type { SessionBackend } from "./backend/session-backend.ts";
import { type CliConfig, parseCliArgs, USAGE } from "./cli/args.ts";
import { ticketFromCommand, tokenFromFile } from "./cli/token-source.ts";
import { connectAcpAgent } from "./connect.ts";

const log = (message: string): void => {
  process.stderr.write(`pi-kit-acp: ${message}\n`);
};

const version = (): string =>
  (
    JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string;
    }
  ).version;

type RunConfig = Exclude<CliConfig, { mode: "help" | "version" }>;

/** The configuration to run with; prints usage or the version and exits when that is all. */
function runConfig(): RunConfig {
  let config: CliConfig;
  try {
    config = parseCliArgs(process.argv.slice(2));
  } catch (error) {
    log(error instanceof Error ? error.message : String(error));
    process.stderr.write(`${USAGE}\n`);
    process.exit(2);
  }
  if (config.mode === "help" || config.mode === "version") {
    process.stdout.write(`${config.mode === "help" ? USAGE : version()}\n`);
    process.exit(0);
  }
  return config;
}

const backend = backendOf(runConfig());

function backendOf(config: RunConfig): SessionBackend {
  return config.mode === "bridge"
    ? bridgeBackend({
        url: config.url,
        ...(config.tokenFile !== undefined
          ? { token: tokenFromFile(config.tokenFile) }
          : config.ticketCommand !== undefined
            ? { token: ticketFromCommand(config.ticketCommand) }
            : {}),
        ...(config.label === undefined ? {} : { label: config.label }),
      })
    : localBackend({
        ...(config.command === undefined ? {} : { command: config.command, args: config.args }),
      });
}

// A failure that escaped a handler is reported, never fatal: the editor keeps its agent.
process.on("unhandledRejection", (reason) => log(`unhandled: ${String(reason)}`));
const connection = connectAcpAgent(
  { backend, log, version: version() },
  Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
  Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
);
await connection.closed;
// The editor closed stdin: the sessions close with the connection; leave once they have.
setTimeout(() => process.exit(0), 5000).unref();
