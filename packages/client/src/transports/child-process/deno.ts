/**
 * @module
 * Spawns pi with `Deno.Command`: the Deno adapter of the child-process transport.
 * Deno is described by the small local interfaces below, so no Deno type package is needed.
 */
import { createChildTransport } from "./child-transport.ts";
import {
  type ChildProcessOptions,
  type ChildProcessTransport,
  type ExitStatus,
  mergeEnv,
  spawnCommand,
} from "./options.ts";
import { leaderGroup } from "./process-group.ts";
import { runtimeGlobal } from "./runtime-global.ts";

/** The part of `Deno.ChildProcess` used here. */
interface DenoChildProcess {
  readonly pid: number;
  readonly stdin: WritableStream<Uint8Array>;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  readonly status: Promise<{ readonly code: number; readonly signal: string | null }>;
  kill(signal?: string): void;
}

/** The part of the `Deno` namespace used here. */
interface DenoNamespace {
  readonly Command: new (
    command: string,
    options: {
      args: string[];
      cwd?: string;
      env: Record<string, string>;
      clearEnv: boolean;
      stdin: "piped";
      stdout: "piped";
      stderr: "piped";
      detached: boolean;
    },
  ) => { spawn(): DenoChildProcess };
  readonly env: { toObject(): Record<string, string> };
  readonly build: { readonly os: string };
  kill(pid: number, signal: string | 0): void;
}

/**
 * Spawns pi on Deno (needs `--allow-run`, and `--allow-env` when `env` removes a variable).
 * Write to it at once: the client's `get_state` handshake is the readiness check.
 *
 * @example
 * ```ts
 * import { spawnDeno } from "@pi-kit/client/deno";
 * const transport = await spawnDeno({ cwd: Deno.cwd() });
 * ```
 */
export async function spawnDeno(options: ChildProcessOptions = {}): Promise<ChildProcessTransport> {
  const deno = runtimeGlobal<DenoNamespace>("Deno");
  const groups = deno.build.os !== "windows";
  // Deno adds `env` to the inherited environment by itself; removing a variable needs the full copy.
  const inherit = options.inheritEnv !== false;
  const removes = inherit && Object.values(options.env ?? {}).includes(undefined);
  const child = spawnCommand(options, (command, args) =>
    new deno.Command(command, {
      args,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      env: mergeEnv(removes ? deno.env.toObject() : {}, options.env),
      clearEnv: removes || !inherit,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      // A group (and session) of its own, so a terminal's Ctrl-C reaches only the host; see ProcessGroup.
      detached: groups,
    }).spawn(),
  );
  const exited = child.status.then(({ code, signal }): ExitStatus => {
    // Deno reports a signal death as 128 + n alongside the signal; Node and Bun report no code.
    return signal === null ? { exitCode: code, signal: null } : { exitCode: null, signal };
  });
  return createChildTransport(
    {
      pid: child.pid,
      stdin: child.stdin,
      stdout: child.stdout,
      stderr: child.stderr,
      exited,
      group: leaderGroup(child, groups ? (pid, signal) => deno.kill(pid, signal) : undefined),
    },
    options,
  );
}
