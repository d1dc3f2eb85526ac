/**
 * The CLI's command line: parsed and checked in full before anything starts, so a mistake is one
 * line and exit code 2, never a stack trace from deep inside the server.
 */
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import process from "node:process";
import { isPermissionMode, type PermissionMode } from "@pi-kit/client/process";
import type { BridgeLimits } from "../bridge-options.ts";
import {
  MIN_LEASE_TTL_MS,
  nodeUrlProblem,
  redactedUrl,
  redisUrlProblem,
  shown,
} from "../cluster/cluster-settings.ts";
import { BridgeError } from "../errors.ts";
import { createCommandPolicy } from "../security/command-policy.ts";
import { defaultSessionsDir } from "../security/sessions-dir.ts";
import { createTicketVerifier, type TicketOptions } from "../security/tickets.ts";
import { assertUsableToken } from "../security/token.ts";
import type { ServeBridgeOptions } from "../serve-options.ts";
import type { PiProcessSpec } from "../sessions/session-settings.ts";

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
  --lease-ttl-ms <n>     Session lease lifetime (default 10000; renewed every third)
  --drain-timeout-ms <n> On SIGTERM, let running turns settle this long (default 30000)
  --index-dir <dir>      This node's history index cache (default: per node, outside the sessions dir)
  --permission-mode <m>  The mode a new session starts in: ask, auto-edits or full (default full)
  --permission-modes <list>
                         The permission modes users may choose, e.g. ask,auto-edits (default all)
  --no-permissions       Do not load pi-kit's permission extension into pi
  --no-checkpoints       Keep no checkpoints of the workspaces (the changes API answers 404)
  --help                 Show this help

The pi command must run RPC mode, e.g. -- pi --mode rpc (pi then needs a model: an API key in
its environment, or pi's own configuration). Clients never choose it.`;

/** Where the token came from: only a generated one is ever printed. */
export type TokenSource = "generated" | "flag" | "file" | "env";

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

/** A mistake on the command line; its message is the one line the CLI prints. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** The environment variable the token may come from. */
export const TOKEN_ENV = "PI_KIT_BRIDGE_TOKEN";

/** The most a TCP port can be. */
const MAX_PORT = 65_535;

/**
 * Parses argv (without the runtime and script). Throws a {@link UsageError} for anything that
 * cannot work: unknown options, bad numbers, a weak token, unknown record types.
 */
export function parseArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): CliArgs {
  const dash = argv.indexOf("--");
  const own = dash === -1 ? argv : argv.slice(0, dash);
  const piCommand = dash === -1 ? [] : argv.slice(dash + 1);
  const origins: string[] = [];
  const allow: string[] = [];
  const deny: string[] = [];
  const warnings: string[] = [];
  const limits: { -readonly [K in keyof BridgeLimits]: BridgeLimits[K] } = {};
  let port: number | undefined;
  let checkpoints = true;
  let hostname: string | undefined;
  let behindProxy = false;
  let scripted = false;
  let token: { value: string; source: TokenSource } | undefined;
  let sessionsDir: string | undefined;
  let workspacesDir: string | undefined;
  let autoCreate = true;
  let sandbox: string | undefined;
  const sandboxRead: string[] = [];
  const sandboxWrite: string[] = [];
  const sandboxHide: string[] = [];
  const secretFiles: string[] = [];
  let sandboxNetwork = true;
  const permissions: { mode?: PermissionMode; allowed?: PermissionMode[]; off?: true } = {};
  const cluster: {
    redisUrl?: string;
    nodeUrl?: string;
    leaseTtlMs?: number;
    drainTimeoutMs?: number;
    indexDir?: string;
  } = {};
  const tickets: { -readonly [K in keyof TicketOptions]: TicketOptions[K] } = {};
  for (let i = 0; i < own.length; i++) {
    const flag = own[i] as string;
    const value = (): string => {
      const next = own[++i];
      if (next === undefined) throw new UsageError(`${flag} needs a value`);
      return next;
    };
    const number = (max = Number.MAX_SAFE_INTEGER): number => {
      const text = value();
      const n = Number(text);
      if (text.trim() === "" || !Number.isInteger(n) || n < 0 || n > max)
        throw new UsageError(`${flag} needs a whole number from 0 to ${max}, got ${quote(text)}`);
      return n;
    };
    const list = (): string[] =>
      value()
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    const setToken = (next: { value: string; source: TokenSource }): void => {
      if (token !== undefined && token.source !== "env")
        throw new UsageError("Give the token once: --token or --token-file");
      token = next;
    };
    switch (flag) {
      case "--port":
        port = number(MAX_PORT);
        break;
      case "--host":
        hostname = value();
        break;
      case "--behind-tls-proxy":
        behindProxy = true;
        break;
      case "--scripted":
        scripted = true;
        break;
      case "--token":
        setToken({ value: value(), source: "flag" });
        warnings.push(
          "--token is visible to every user of this machine in `ps`; use --token-file or $PI_KIT_BRIDGE_TOKEN",
        );
        break;
      case "--token-file": {
        const path = resolve(value());
        setToken({ value: readSecretFile(path, "token", warnings), source: "file" });
        secretFiles.push(path);
        break;
      }
      case "--ticket-secret-file": {
        const path = resolve(value());
        tickets.secret = readSecretFile(path, "ticket secret", warnings);
        secretFiles.push(path);
        break;
      }
      case "--ticket-public-key-file":
        tickets.publicKey = readPublicKey(resolve(value()));
        break;
      case "--ticket-audience":
        tickets.audience = value();
        break;
      case "--ticket-issuer":
        tickets.issuer = value();
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
      case "--workspaces-dir":
        workspacesDir = resolve(value());
        break;
      case "--max-sessions":
        limits.maxSessions = number();
        break;
      case "--max-sessions-per-user":
        limits.maxSessionsPerUser = number();
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
      case "--keepalive-ms":
        limits.keepaliveMs = number();
        break;
      case "--no-auto-create":
        autoCreate = false;
        break;
      case "--sandbox":
        sandbox = value();
        if (sandbox !== "bwrap")
          throw new UsageError(`--sandbox knows only bwrap, got ${quote(sandbox)}`);
        break;
      case "--sandbox-read":
        sandboxRead.push(resolve(value()));
        break;
      case "--sandbox-write":
        sandboxWrite.push(resolve(value()));
        break;
      case "--sandbox-hide":
        sandboxHide.push(resolve(value()));
        break;
      case "--sandbox-no-network":
        sandboxNetwork = false;
        break;
      case "--cluster": {
        const text = value();
        const problem = redisUrlProblem(text);
        if (problem !== undefined)
          throw new UsageError(`${flag} needs ${problem}, got ${shown(redactedUrl(text))}`);
        cluster.redisUrl = text;
        break;
      }
      case "--node-url": {
        const text = value();
        const problem = nodeUrlProblem(text);
        if (problem !== undefined)
          throw new UsageError(`${flag} needs ${problem}, got ${shown(text)}`);
        cluster.nodeUrl = text;
        break;
      }
      case "--lease-ttl-ms":
        cluster.leaseTtlMs = number();
        if (cluster.leaseTtlMs < MIN_LEASE_TTL_MS)
          throw new UsageError(
            `${flag} needs at least ${MIN_LEASE_TTL_MS} ms, got ${cluster.leaseTtlMs}`,
          );
        break;
      case "--drain-timeout-ms":
        cluster.drainTimeoutMs = number();
        break;
      case "--index-dir":
        cluster.indexDir = resolve(value());
        break;
      case "--permission-mode":
        permissions.mode = permissionMode(flag, value());
        break;
      case "--permission-modes":
        permissions.allowed = list().map((mode) => permissionMode(flag, mode));
        break;
      case "--no-checkpoints":
        checkpoints = false;
        break;
      case "--no-permissions":
        permissions.off = true;
        break;
      default:
        throw new UsageError(`Unknown option ${quote(flag)}`);
    }
  }
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
      ...(checkpoints ? {} : { checkpoints: false as const }),
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

/** A permission mode named on the command line. */
function permissionMode(flag: string, text: string): PermissionMode {
  if (isPermissionMode(text)) return text;
  throw new UsageError(`${flag} knows ask, auto-edits and full, got ${quote(text)}`);
}

/** Whether `host` is a loopback address (only this machine can connect). */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

/** The first line of a secret's file (`what`: "token"); warns when others may read the file. */
export function readSecretFile(path: string, what: string, warnings: string[]): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
    const mode = statSync(path).mode;
    if (process.platform !== "win32" && (mode & 0o077) !== 0)
      warnings.push(
        `The ${what} file ${path} can be read by other users: run \`chmod 600 ${path}\``,
      );
  } catch (error) {
    throw new UsageError(`Cannot read the ${what} file ${path}: ${(error as Error).message}`);
  }
  const secret = text.split(/\r?\n/, 1)[0]?.trim() ?? "";
  if (secret === "") throw new UsageError(`The ${what} file ${path} is empty`);
  return secret;
}

/** The ticket public key file's text (`createTicketVerifier` checks the key, before the start). */
function readPublicKey(path: string): string {
  let pem: string;
  try {
    pem = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(
      `Cannot read the ticket public key file ${path}: ${(error as Error).message}`,
    );
  }
  return pem;
}

/** A value from the command line, quoted and cut short, for an error message. */
function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}
