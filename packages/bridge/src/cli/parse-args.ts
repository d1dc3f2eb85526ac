/**
 * The CLI's command line: parsed and checked in full before anything starts, so a mistake is one
 * line and exit code 2, never a stack trace from deep inside the server. The flags themselves are
 * a table (`cli/flags.ts`); the files they name are read by `cli/read-files.ts`.
 */

import type { ServeBridgeOptions } from "../adapters/serve-options.ts";
import { BridgeError } from "../errors/bridge-error.ts";
import { createCommandPolicy } from "../security/command-policy.ts";
import { defaultSessionsDir } from "../security/sessions-dir.ts";
import { createTicketVerifier } from "../security/tickets.ts";
import { assertUsableToken } from "../security/token.ts";
import type { PiProcessSpec } from "../sessions/session-settings.ts";
import { parseFlags, type TokenSource } from "./flags.ts";
import { type CliFiles, diskFiles } from "./read-files.ts";
import { UsageError } from "./usage-error.ts";

export type { TokenSource } from "./flags.ts";
export { UsageError } from "./usage-error.ts";

/** The CLI's help text. */
export const USAGE = `Usage: npx @pi-kit/bridge [options] -- <pi command> [pi args...]
       npx @pi-kit/bridge [options] --scripted
       npx @pi-kit/bridge cluster status [--url <node url>] [--token-file <path>] [--json]
                         List the sessions leased in a cluster (owner, fence, lease age), from
                         any node's GET /cluster/sessions (default url http://127.0.0.1:8787)

Options:
  --scripted             Run real pi 1.x on the embedded scripted model of @pi-kit/testing (no
                         API key; it echoes prompts and acts out [[directives]]) instead of a
                         pi command; sessions go to a temp directory unless --sessions-dir
  --port <n>             Port (default 8787; 0 picks a free one)
  --host <addr>          Interface (default 127.0.0.1; anything else exposes pi to the network:
                         put a TLS terminator such as Caddy or nginx in front)
  --behind-tls-proxy     The --host address is reached only through a TLS terminator
                         (silences the warning about a non-loopback address)
  --token-file <path>    Read the token from this file (first line)
  --token <t>            The token; visible to every user in \`ps\`: prefer --token-file or
                         $PI_KIT_BRIDGE_TOKEN. Without any of them a token is generated and printed once
  --ticket-secret-file <path>
                         Accept per-user tickets (JWT, HS256) signed with the secret in this file
                         (first line, at least 32 bytes): each user gets their own sessions
  --ticket-public-key-file <path>
                         Accept per-user tickets (JWT, EdDSA) signed by the private half of this
                         Ed25519 public key (SPKI PEM)
  --ticket-audience <aud>
                         The audience tickets must name (default pi-kit-bridge)
  --ticket-issuer <iss>  The issuer tickets must name (default: not checked)
  --origin <origin>      Allow a browser origin (repeatable; "*" allows any)
  --allow <types>        Only these record types (comma-separated, repeatable)
  --deny <types>         Refuse these record types, e.g. bash (comma-separated, repeatable)
  --sessions-dir <dir>   Where session directories go, private to this user
                         (default: $XDG_STATE_HOME or ~/.local/state, then pi-kit/bridge/sessions)
  --workspaces-dir <dir> Give each session a working directory of its own in this directory,
                         private to this user (default: every pi works in this directory)
  --max-sessions <n>     Session cap (default 16)
  --max-sessions-per-user <n>
                         Session cap of one ticket user (default 4)
  --grace-ms <n>         Keep pi running this long without a client (default 30000)
  --control-reclaim-ms <n>
                         After a restart, keep control this long for the viewer that had it;
                         0 = the first viewer back controls (default 15000)
  --idle-ms <n>          Reap attached sessions idle this long; 0 = never (default 3600000)
  --high-water-mark <n>  Socket bytes before reading pi pauses (default 1048576)
  --keepalive-ms <n>     Send every socket a bridge_ping this often; clients reconnect after two
                         missed (default 15000; in cluster mode at most a third of the lease TTL;
                         0 = never)
  --no-auto-create       Refuse sockets to unknown sessions (404, or close 4404); POST /api/sessions creates them
  --sandbox bwrap        Run each pi under bubblewrap: its workspace and session directory
                         writable, the rest read-only, homes and other sessions absent
  --sandbox-read <path>  Also show this host path to the sandbox, read-only (repeatable)
  --sandbox-write <path> Also let the sandbox write this host path (repeatable)
  --sandbox-hide <path>  Also take this host path away from the sandbox (repeatable); the
                         --token-file is always taken away
  --sandbox-no-network   Take the network away from the sandbox too (pi then needs a local model)
  --cluster <redis-url>  Cluster mode: bridges on one shared --sessions-dir, each session owned
                         by a lease in this Redis (single primary) instead of the directory's lock
  --node-url <url>       This node's internal URL other nodes forward to (default: its own URL)
  --lease-ttl-ms <n>     How long a node's leases outlive its last renew (default 2000; one
                         renew an eighth of it per node, whatever its sessions)
  --drain-timeout-ms <n> On SIGTERM, let running turns settle this long (default 30000)
  --index-dir <dir>      This node's history index cache (default: per node, outside the sessions dir)
  --permission-mode <m>  The mode a new session starts in: ask, auto-edits or full (default full)
  --permission-modes <list>
                         The permission modes users may choose, e.g. ask,auto-edits (default all)
  --no-permissions       Do not load pi-kit's permission extension into pi
  --no-checkpoints       Keep no checkpoints of the workspaces (the changes API answers 404)
  --checkpoint-max-file-bytes <n>
                         Untracked files larger than this are listed as changed but not
                         snapshotted, so they cannot be reverted (default 5242880, 5 MiB)
  --no-uploads           Take no uploads (the upload API answers 404 uploads_off)
  --upload-max-file-bytes <n>
                         The largest uploaded file (default 26214400, 25 MiB)
  --upload-max-files <n> The most files one message uploads, and unfinished uploads at once
                         (default 10)
  --upload-max-session-bytes <n>
                         The most bytes one session's uploads take (default 209715200, 200 MiB)
  --help                 Show this help

The pi command must run RPC mode, e.g. -- pi --mode rpc (pi then needs a model: an API key in
its environment, or pi's own configuration). Clients never choose it.`;

/** The parsed command line: what to serve, and what to warn about. */
export interface CliArgs {
  /** The options for `serveBridge` (without a logger, pi, or with `--scripted` a default `sessionsDir`). */
  readonly serve: Omit<ServeBridgeOptions, "pi" | "sessionsDir"> & {
    readonly sessionsDir?: string;
  };
  /** The pi every session runs, or `"scripted"` for `--scripted` (see `cli/scripted-pi.ts`). */
  readonly pi: PiProcessSpec | "scripted";
  /** Where the token came from. */
  readonly tokenSource: TokenSource;
  /** Risky but valid choices, to log as warnings. */
  readonly warnings: readonly string[];
}

/** The environment variable the token may come from. */
export const TOKEN_ENV = "PI_KIT_BRIDGE_TOKEN";

/**
 * Parses argv (without the runtime and script). Throws a {@link UsageError} for anything that
 * cannot work: unknown options, bad numbers, a weak token, unknown record types.
 */
export function parseArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): CliArgs {
  return parseCommandLine(argv, env, diskFiles);
}

/** {@link parseArgs} with the files it reads given (pure but for `files`). */
export function parseCommandLine(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  files: CliFiles,
): CliArgs {
  const dash = argv.indexOf("--");
  const own = dash === -1 ? argv : argv.slice(0, dash);
  const piCommand = dash === -1 ? [] : argv.slice(dash + 1);
  const flags = parseFlags(own, files);
  const {
    port,
    hostname,
    behindProxy,
    scripted,
    sessionsDir,
    workspacesDir,
    autoCreate,
    origins,
    allow,
    deny,
    warnings,
    limits,
    checkpoints,
    checkpointMaxFileBytes,
    uploads,
    uploadLimits,
    sandbox,
    sandboxRead,
    sandboxWrite,
    sandboxHide,
    secretFiles,
    sandboxNetwork,
    permissions,
    cluster,
    tickets,
  } = flags;
  let { token } = flags;
  if (!checkpoints && checkpointMaxFileBytes !== undefined)
    throw new UsageError("--checkpoint-max-file-bytes cannot be used with --no-checkpoints");
  if (!uploads && Object.keys(uploadLimits).length > 0)
    throw new UsageError("--upload-max-* options cannot be used with --no-uploads");
  if (
    sandbox === undefined &&
    (sandboxRead.length > 0 || sandboxWrite.length > 0 || !sandboxNetwork)
  )
    throw new UsageError(
      "--sandbox-read, --sandbox-write and --sandbox-no-network need --sandbox bwrap",
    );
  const { redisUrl, ...clusterRest } = cluster;
  if (redisUrl === undefined && Object.keys(clusterRest).length > 0)
    throw new UsageError(
      "--node-url, --lease-ttl-ms, --drain-timeout-ms and --index-dir need --cluster",
    );
  const { off, ...modes } = permissions;
  if (off && Object.keys(modes).length > 0)
    throw new UsageError("--permission-mode and --permission-modes need the permission extension");
  if (
    modes.mode !== undefined &&
    modes.allowed !== undefined &&
    !modes.allowed.includes(modes.mode)
  )
    throw new UsageError(`--permission-mode ${modes.mode} is not one of --permission-modes`);
  const fromEnv = env[TOKEN_ENV];
  if (token === undefined && fromEnv !== undefined && fromEnv !== "")
    token = { value: fromEnv, source: "env" };
  const [command, ...args] = piCommand;
  if (scripted && command !== undefined)
    throw new UsageError("--scripted runs pi on the scripted model: give no pi command after --");
  if (!scripted && command === undefined)
    throw new UsageError(
      "Give the pi command after --, e.g. -- pi --mode rpc, or --scripted to try it without an API key",
    );
  const policy = { ...(allow.length > 0 ? { allow } : {}), deny };
  const useTickets = tickets.secret !== undefined || tickets.publicKey !== undefined;
  if (!useTickets && (tickets.audience !== undefined || tickets.issuer !== undefined))
    throw new UsageError(
      "--ticket-audience and --ticket-issuer need --ticket-secret-file or --ticket-public-key-file",
    );
  try {
    if (token !== undefined) assertUsableToken(token.value);
    createCommandPolicy(policy);
    if (useTickets) createTicketVerifier(tickets);
  } catch (error) {
    if (error instanceof BridgeError) throw new UsageError(error.message);
    throw error;
  }
  if (useTickets && workspacesDir === undefined) {
    warnings.push(
      "every ticket user's pi works in the same directory, where each can read and change the others' files: pass --workspaces-dir (and --sandbox bwrap) to give each session a directory of its own",
    );
  }
  if (hostname !== undefined && !isLoopback(hostname) && !behindProxy) {
    warnings.push(
      `--host ${hostname} exposes pi (which runs shell commands) to the network, and the token and every record travel in clear text: put a TLS terminator such as Caddy or nginx in front and pass --behind-tls-proxy, or keep the default 127.0.0.1`,
    );
  }
  return {
    // pi inherits the bridge's environment, but never the bridge's own token.
    pi: command === undefined ? "scripted" : { command, args, env: { [TOKEN_ENV]: undefined } },
    serve: {
      ...(token === undefined ? {} : { token: token.value }),
      ...(useTickets ? { tickets } : {}),
      // The scripted pi's sessions are throwaway: its own temp directory unless one is named.
      ...(sessionsDir === undefined && scripted
        ? {}
        : { sessionsDir: sessionsDir ?? defaultSessionsDir(env) }),
      ...(workspacesDir === undefined ? {} : { workspacesDir }),
      origins,
      policy,
      limits,
      autoCreate,
      ...(off
        ? { permissions: false as const }
        : Object.keys(modes).length > 0
          ? { permissions: modes }
          : {}),
      ...(!checkpoints
        ? { checkpoints: false as const }
        : checkpointMaxFileBytes === undefined
          ? {}
          : { checkpoints: { maxFileBytes: checkpointMaxFileBytes } }),
      ...(!uploads
        ? { uploads: false as const }
        : Object.keys(uploadLimits).length > 0
          ? { uploads: uploadLimits }
          : {}),
      ...(sandbox === undefined
        ? {}
        : {
            sandbox: {
              kind: "bwrap" as const,
              readOnly: sandboxRead,
              writable: sandboxWrite,
              hidden: [...sandboxHide, ...secretFiles],
              network: sandboxNetwork,
            },
          }),
      ...(redisUrl === undefined ? {} : { cluster: { redisUrl, ...clusterRest } }),
      ...(port === undefined ? {} : { port }),
      ...(hostname === undefined ? {} : { hostname }),
    },
    tokenSource: token?.source ?? "generated",
    warnings,
  };
}

/** Whether `host` is a loopback address (only this machine can connect). */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127\.\d+\.\d+\.\d+$/.test(bare);
}
