/**
 * Runs the bridge's CLI (`src/cli.ts`) as its own process on the runtime the tests run on, the
 * way a person starts it from a terminal, and reads what it prints.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { scriptCommand } from "@pi-kit/testing";
import type { BridgeAddress } from "./helpers.ts";

const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));

/** A running CLI. */
export interface CliProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Everything printed so far. */
  stdout(): string;
  stderr(): string;
  /** Settles when the process has exited and its output is read. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the URL once the CLI says it listens; rejects when it exits first. */
  listening(): Promise<string>;
  /** Sends SIGKILL to the process (and its group, when it has one); for cleanup. */
  kill(): void;
}

/** Options of {@link runCli}. */
export interface RunCliOptions {
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Start it as the leader of a process group of its own, as a shell does for a job. */
  readonly group?: boolean;
}

/** Starts the CLI with `args`. */
export function runCli(args: readonly string[], options: RunCliOptions = {}): CliProcess {
  const { command, args: argv } = scriptCommand(cli, args);
  const child = spawn(command, argv, {
    env: options.env ?? (process.env as Record<string, string>),
    cwd: options.cwd,
    detached: options.group ?? false,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  const wake = new Set<() => void>();
  child.stdout?.setEncoding("utf8").on("data", (text: string) => {
    out += text;
    for (const w of wake) w();
  });
  child.stderr?.setEncoding("utf8").on("data", (text: string) => {
    err += text;
  });
  // "close", not "exit": only then has everything it printed been read.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("close", (code, signal) => {
      resolve({ code, signal });
      for (const w of wake) w();
    }),
  );
  let done = false;
  void exited.then(() => (done = true));
  return {
    child,
    pid: child.pid as number,
    stdout: () => out,
    stderr: () => err,
    exited,
    listening() {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          // The CLI prints its URL (and a generated token) in one write, ending with a newline.
          const match = /listening on (\S+)\n/.exec(out);
          if (match !== null) {
            wake.delete(check);
            resolve(match[1] as string);
          } else if (done) {
            wake.delete(check);
            reject(new Error(`the CLI exited before listening:\n${err}`));
          }
        };
        wake.add(check);
        check();
      });
    },
    kill() {
      try {
        process.kill(options.group ? -(child.pid as number) : (child.pid as number), "SIGKILL");
      } catch {
        // Already gone.
      }
    },
  };
}

/** The token the CLI printed, if it printed one. */
export function printedToken(stdout: string): string | undefined {
  return /^token: (\S+)\n/m.exec(stdout)?.[1];
}

/** A bridge's address for `connect`, from the URL and token the CLI printed. */
export function address(url: string, token: string): BridgeAddress {
  return { token, wsUrl: (name) => `${url.replace(/^http/, "ws")}/sessions/${name}/ws` };
}
