/**
 * Builds the spawn spec for real pi in RPC mode with an isolated HOME, agent dir and workspace,
 * without spawning it (transports spawn it their own way).
 * @module
 */

import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { MODEL, PROVIDER, writeAgentDir } from "./agent-dir.ts";
import { PI_RELEASES, type PiVersion, resolvePi } from "./resolve-pi.ts";
import { resolveNode20, resolveNode22 } from "./runtime.ts";
import { uiProbeExtensionPath } from "./ui-probe.ts";

/** Options of {@link piCommand}. */
export interface PiCommandOptions {
  /** Which pi to run: `"1"` (1.x), `"1.0"` (1.0.3), `"0.87"` (0.87.1), all on Node 22, or `"0.73"` (0.73.1 on Node 20). */
  readonly version: PiVersion;
  /** OpenAI base URL of the model server, e.g. `server.baseUrl`. */
  readonly baseUrl: string;
  /** Model id (default `scripted`; `scripted-reasoning` is the reasoning model). */
  readonly model?: string;
  /** Extension files passed with `-e`. */
  readonly extensions?: readonly string[];
  /** Also load the bundled ui-probe extension (see {@link uiProbeExtensionPath}). */
  readonly uiProbe?: boolean;
  /** Persist sessions: `true` for a temp dir, a path for that dir; default `--no-session`. */
  readonly sessionDir?: boolean | string;
  /** Extra CLI arguments, appended last. */
  readonly args?: readonly string[];
  /** Extra environment; `undefined` removes a variable. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Settings merged over the kit's `settings.json`. */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Working directory for pi (default: a fresh temp workspace). */
  readonly cwd?: string;
  /** Node binary (default: resolved per version, see `resolveNode22`/`resolveNode20`). */
  readonly nodePath?: string;
  /** pi CLI entry (default: resolved from the installed package). */
  readonly cliPath?: string;
}

/** A ready-to-spawn pi command plus the temp directories it owns. */
export interface PiCommand {
  /** Executable: the Node binary. */
  readonly command: string;
  /** Arguments: the CLI path, then `--mode rpc …`. */
  readonly args: readonly string[];
  /** Working directory. */
  readonly cwd: string;
  /** Complete environment for the child. */
  readonly env: Readonly<Record<string, string>>;
  /** The isolated agent directory (`PI_CODING_AGENT_DIR`), holding models.json and settings.json. */
  readonly agentDir: string;
  /** The isolated HOME. */
  readonly home: string;
  /** pi's working directory (a temp workspace unless `cwd` was given). */
  readonly workspace: string;
  /** Root of all temp directories of this command. */
  readonly tempRoot: string;
  /** The pi line. */
  readonly version: PiVersion;
  /** Exact pi version from its package.json. */
  readonly piVersion: string;
  /** Removes the temp directories. */
  dispose(): void;
}

/** Variables that would leak the caller's setup into pi. */
const SCRUBBED_ENV = ["NODE_OPTIONS", "PI_CODING_AGENT_SESSION_DIR", "PI_PACKAGE_DIR"];

function childEnv(
  home: string,
  agentDir: string,
  extra: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of SCRUBBED_ENV) delete env[name];
  Object.assign(env, {
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    PI_CODING_AGENT_DIR: agentDir,
    // No update checks, catalog refreshes or telemetry: tests stay on loopback.
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    PI_TELEMETRY: "0",
    ...extra,
  });
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

/** Prepares an isolated agent dir and returns how to spawn pi against `options.baseUrl`. */
export function piCommand(options: PiCommandOptions): PiCommand {
  const install = options.cliPath ? undefined : resolvePi(options.version);
  const cliPath = options.cliPath ?? install?.cliPath ?? "";
  const node = PI_RELEASES[options.version].node;
  const command = options.nodePath ?? (node === 22 ? resolveNode22() : resolveNode20());
  // realpath: stable paths in transcripts even where tmpdir is a symlink (macOS /var).
  const tempRoot = realpathSync(mkdtempSync(join(tmpdir(), "pi-kit-")));
  const home = join(tempRoot, "home");
  const agentDir = join(home, ".pi", "agent");
  const workspace = options.cwd ?? join(tempRoot, "workspace");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  writeAgentDir(agentDir, options.baseUrl, options.settings);

  const args = [
    cliPath,
    "--mode",
    "rpc",
    "--provider",
    PROVIDER,
    "--model",
    options.model ?? MODEL,
  ];
  if (options.sessionDir === undefined || options.sessionDir === false) args.push("--no-session");
  else {
    const dir = options.sessionDir === true ? join(tempRoot, "sessions") : options.sessionDir;
    mkdirSync(dir, { recursive: true });
    args.push("--session-dir", dir);
  }
  const extensions = [
    ...(options.uiProbe ? [uiProbeExtensionPath] : []),
    ...(options.extensions ?? []),
  ];
  for (const extension of extensions) args.push("-e", extension);
  args.push(...(options.args ?? []));

  return {
    command,
    args,
    cwd: workspace,
    env: childEnv(home, agentDir, options.env ?? {}),
    agentDir,
    home,
    workspace,
    tempRoot,
    version: options.version,
    piVersion: install?.version ?? "unknown",
    dispose() {
      rmSync(tempRoot, { recursive: true, force: true });
    },
  };
}
