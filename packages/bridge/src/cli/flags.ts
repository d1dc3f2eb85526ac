/**
 * The CLI's flags as a table: each names its type and turns its value into the typed option, so
 * one function (`parseFlags`) runs `node:util`'s `parseArgs` (on Node, Deno and Bun) and applies
 * the table in command-line order. Pure but for the files it is given to read.
 */
import { resolve } from "node:path";
import { parseArgs as parseTokens } from "node:util";
import { isPermissionMode, type PermissionMode } from "@pi-kit/client/process";
import {
  MIN_LEASE_TTL_MS,
  nodeUrlProblem,
  redactedUrl,
  redisUrlProblem,
  shown,
} from "../cluster/cluster-settings.ts";
import type { BridgeLimits } from "../options/bridge-options.ts";
import type { TicketOptions } from "../security/tickets.ts";
import type { UploadSettings } from "../uploads/session-uploads.ts";
import type { CliFiles } from "./read-files.ts";
import { quote, UsageError } from "./usage-error.ts";

/** Where the token came from: only a generated one is ever printed. */
export type TokenSource = "generated" | "flag" | "file" | "env";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** What the flags say, before the checks across flags. */
export interface Flags {
  port?: number;
  hostname?: string;
  behindProxy: boolean;
  scripted: boolean;
  token?: { value: string; source: TokenSource };
  sessionsDir?: string;
  workspacesDir?: string;
  autoCreate: boolean;
  readonly origins: string[];
  readonly allow: string[];
  readonly deny: string[];
  readonly warnings: string[];
  readonly limits: Mutable<BridgeLimits>;
  checkpoints: boolean;
  checkpointMaxFileBytes?: number;
  uploads: boolean;
  readonly uploadLimits: Mutable<UploadSettings>;
  sandbox?: string;
  readonly sandboxRead: string[];
  readonly sandboxWrite: string[];
  readonly sandboxHide: string[];
  /** Files the sandbox must never show (the token and ticket secret files). */
  readonly secretFiles: string[];
  sandboxNetwork: boolean;
  readonly permissions: { mode?: PermissionMode; allowed?: PermissionMode[]; off?: true };
  readonly cluster: {
    redisUrl?: string;
    nodeUrl?: string;
    leaseTtlMs?: number;
    drainTimeoutMs?: number;
    indexDir?: string;
  };
  readonly tickets: Mutable<TicketOptions>;
}

/** What a flag's function is given besides its value. */
interface FlagContext {
  /** The flag as written, e.g. `--port`. */
  readonly flag: string;
  readonly files: CliFiles;
}

/** One flag: a switch, or a flag with a value (`multiple`: repeatable). */
type Flag =
  | { readonly type: "boolean"; readonly apply: (flags: Flags) => void }
  | {
      readonly type: "string";
      readonly multiple?: true;
      readonly apply: (flags: Flags, value: string, context: FlagContext) => void;
    };

/** The most a TCP port can be. */
const MAX_PORT = 65_535;

/** A whole number from 0 to `max`. */
function wholeNumber(flag: string, text: string, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(text);
  if (text.trim() === "" || !Number.isInteger(n) || n < 0 || n > max)
    throw new UsageError(`${flag} needs a whole number from 0 to ${max}, got ${quote(text)}`);
  return n;
}

/** A comma-separated list, without blanks. */
function list(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A permission mode named on the command line. */
function permissionMode(flag: string, text: string): PermissionMode {
  if (isPermissionMode(text)) return text;
  throw new UsageError(`${flag} knows ask, auto-edits and full, got ${quote(text)}`);
}

/** Sets the token; only one of --token and --token-file (the environment's yields to either). */
function setToken(flags: Flags, token: { value: string; source: TokenSource }): void {
  if (flags.token !== undefined && flags.token.source !== "env")
    throw new UsageError("Give the token once: --token or --token-file");
  flags.token = token;
}

/** A switch. */
const on = (apply: (flags: Flags) => void): Flag => ({ type: "boolean", apply });
/** A flag with a value. */
const value = (apply: (flags: Flags, value: string, context: FlagContext) => void): Flag => ({
  type: "string",
  apply,
});
/** A repeatable flag with a value. */
const repeated = (apply: (flags: Flags, value: string, context: FlagContext) => void): Flag => ({
  type: "string",
  multiple: true,
  apply,
});
/** A whole-number flag. */
const whole = (apply: (flags: Flags, n: number, context: FlagContext) => void): Flag =>
  value((flags, text, context) => apply(flags, wholeNumber(context.flag, text), context));

/** Every flag of the bridge's command line (`--help` is the CLI's own), by name without `--`. */
export const FLAGS: Readonly<Record<string, Flag>> = {
  port: value((f, text, { flag }) => {
    f.port = wholeNumber(flag, text, MAX_PORT);
  }),
  host: value((f, text) => {
    f.hostname = text;
  }),
  "behind-tls-proxy": on((f) => {
    f.behindProxy = true;
  }),
  scripted: on((f) => {
    f.scripted = true;
  }),
  token: value((f, text) => {
    setToken(f, { value: text, source: "flag" });
    f.warnings.push(
      "--token is visible to every user of this machine in `ps`; use --token-file or $PI_KIT_BRIDGE_TOKEN",
    );
  }),
  "token-file": value((f, text, { files }) => {
    const path = resolve(text);
    setToken(f, { value: files.secret(path, "token", f.warnings), source: "file" });
    f.secretFiles.push(path);
  }),
  "ticket-secret-file": value((f, text, { files }) => {
    const path = resolve(text);
    f.tickets.secret = files.secret(path, "ticket secret", f.warnings);
    f.secretFiles.push(path);
  }),
  "ticket-public-key-file": value((f, text, { files }) => {
    f.tickets.publicKey = files.publicKey(resolve(text));
  }),
  "ticket-audience": value((f, text) => {
    f.tickets.audience = text;
  }),
  "ticket-issuer": value((f, text) => {
    f.tickets.issuer = text;
  }),
  origin: repeated((f, text) => {
    f.origins.push(text);
  }),
  allow: repeated((f, text) => {
    f.allow.push(...list(text));
  }),
  deny: repeated((f, text) => {
    f.deny.push(...list(text));
  }),
  "sessions-dir": value((f, text) => {
    f.sessionsDir = resolve(text);
  }),
  "workspaces-dir": value((f, text) => {
    f.workspacesDir = resolve(text);
  }),
  "max-sessions": whole((f, n) => {
    f.limits.maxSessions = n;
  }),
  "max-sessions-per-user": whole((f, n) => {
    f.limits.maxSessionsPerUser = n;
  }),
  "grace-ms": whole((f, n) => {
    f.limits.graceMs = n;
  }),
  "control-reclaim-ms": whole((f, n) => {
    f.limits.controlReclaimMs = n;
  }),
  "idle-ms": whole((f, n) => {
    f.limits.idleMs = n;
  }),
  "high-water-mark": whole((f, n) => {
    f.limits.highWaterMark = n;
  }),
  "keepalive-ms": whole((f, n) => {
    f.limits.keepaliveMs = n;
  }),
  "no-auto-create": on((f) => {
    f.autoCreate = false;
  }),
  sandbox: value((f, text) => {
    f.sandbox = text;
    if (text !== "bwrap") throw new UsageError(`--sandbox knows only bwrap, got ${quote(text)}`);
  }),
  "sandbox-read": repeated((f, text) => {
    f.sandboxRead.push(resolve(text));
  }),
  "sandbox-write": repeated((f, text) => {
    f.sandboxWrite.push(resolve(text));
  }),
  "sandbox-hide": repeated((f, text) => {
    f.sandboxHide.push(resolve(text));
  }),
  "sandbox-no-network": on((f) => {
    f.sandboxNetwork = false;
  }),
  cluster: value((f, text, { flag }) => {
    const problem = redisUrlProblem(text);
    if (problem !== undefined)
      throw new UsageError(`${flag} needs ${problem}, got ${shown(redactedUrl(text))}`);
    f.cluster.redisUrl = text;
  }),
  "node-url": value((f, text, { flag }) => {
    const problem = nodeUrlProblem(text);
    if (problem !== undefined) throw new UsageError(`${flag} needs ${problem}, got ${shown(text)}`);
    f.cluster.nodeUrl = text;
  }),
  "lease-ttl-ms": whole((f, n, { flag }) => {
    f.cluster.leaseTtlMs = n;
    if (n < MIN_LEASE_TTL_MS)
      throw new UsageError(`${flag} needs at least ${MIN_LEASE_TTL_MS} ms, got ${n}`);
  }),
  "drain-timeout-ms": whole((f, n) => {
    f.cluster.drainTimeoutMs = n;
  }),
  "index-dir": value((f, text) => {
    f.cluster.indexDir = resolve(text);
  }),
  "permission-mode": value((f, text, { flag }) => {
    f.permissions.mode = permissionMode(flag, text);
  }),
  "permission-modes": value((f, text, { flag }) => {
    f.permissions.allowed = list(text).map((mode) => permissionMode(flag, mode));
  }),
  "no-checkpoints": on((f) => {
    f.checkpoints = false;
  }),
  "checkpoint-max-file-bytes": whole((f, n) => {
    f.checkpointMaxFileBytes = n;
  }),
  "no-uploads": on((f) => {
    f.uploads = false;
  }),
  "upload-max-file-bytes": whole((f, n) => {
    f.uploadLimits.maxFileBytes = n;
  }),
  "upload-max-files": whole((f, n, { flag }) => {
    f.uploadLimits.maxFilesPerMessage = n;
    if (n < 1) throw new UsageError(`${flag} needs a whole number from 1, got 0`);
  }),
  "upload-max-session-bytes": whole((f, n) => {
    f.uploadLimits.maxSessionBytes = n;
  }),
  "no-permissions": on((f) => {
    f.permissions.off = true;
  }),
};

/** The table as `parseArgs` options. */
const OPTIONS = Object.fromEntries(
  Object.entries(FLAGS).map(([name, flag]) => [
    name,
    { type: flag.type, ...(flag.type === "string" && flag.multiple ? { multiple: true } : {}) },
  ]),
);

/**
 * Applies the table to the bridge's own arguments (those before `--`), in order, so the first
 * mistake is the one reported. Only `--name value` is known: `--name=value`, short options and
 * anything else is an unknown option.
 */
export function parseFlags(own: readonly string[], files: CliFiles): Flags {
  const flags: Flags = {
    behindProxy: false,
    scripted: false,
    autoCreate: true,
    origins: [],
    allow: [],
    deny: [],
    warnings: [],
    limits: {},
    checkpoints: true,
    uploads: true,
    uploadLimits: {},
    sandboxRead: [],
    sandboxWrite: [],
    sandboxHide: [],
    secretFiles: [],
    sandboxNetwork: true,
    permissions: {},
    cluster: {},
    tickets: {},
  };
  const { tokens } = parseTokens({
    args: [...own],
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    const written = own[token.index] as string;
    const flag =
      token.kind === "option" && Object.hasOwn(FLAGS, token.name) ? FLAGS[token.name] : undefined;
    if (
      token.kind !== "option" ||
      flag === undefined ||
      token.inlineValue === true ||
      token.rawName !== `--${token.name}`
    )
      throw new UsageError(`Unknown option ${quote(written)}`);
    if (flag.type === "boolean") flag.apply(flags);
    else {
      if (token.value === undefined) throw new UsageError(`${written} needs a value`);
      flag.apply(flags, token.value, { flag: written, files });
    }
  }
  return flags;
}
