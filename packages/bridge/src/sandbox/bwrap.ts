/**
 * The bubblewrap sandbox. Each pi sees the file system read-only, with the home directories, the
 * other sessions (and their workspaces), `/tmp` and `/run` replaced by empty private ones (and any `hidden` path taken
 * away); it may write only its workspace and its own session directory. It runs as the bridge's
 * user without capabilities, so what that user can read outside those places, it can read too. It gets its own user, PID, IPC and UTS namespaces
 * (the network stays unless turned off: pi must reach its model provider), a session of its own
 * (no terminal injection), and it dies with the bridge: when bwrap's parent goes, the sandbox's
 * init goes, and with it every process pi started.
 */
import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, resolve, sep } from "node:path";
import process from "node:process";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";
import { resolveCommand } from "../executables/resolve-command.ts";
import { agentDirOf, privateAgentDir } from "./private-agent-dir.ts";
import type { BwrapSandboxOptions, Sandbox } from "./sandbox.ts";

/** Directories no sandboxed pi may see, replaced by empty private ones, when they exist. */
const HIDDEN = ["/tmp", "/var/tmp", "/run", "/home", "/root"];

/**
 * Creates the sandbox after checking, with a trial run, that bubblewrap is there and can make
 * its namespaces; throws a `BridgeError` (`invalid_options`) that says what to install or allow.
 */
export function bwrapSandbox(
  options: BwrapSandboxOptions,
  privateDirs: readonly string[],
): Sandbox {
  const command = options.command ?? "bwrap";
  const network = options.network !== false;
  probe(command, network);
  return {
    command,
    async wrap(spawn, sessionDir) {
      const env: Record<string, string | undefined> =
        spawn.inheritEnv === false ? { ...spawn.env } : { ...process.env, ...spawn.env };
      const workspace = resolve(spawn.cwd ?? process.cwd());
      const home = env.HOME;
      const agentDir = agentDirOf(env);
      const extra = (options.hidden ?? []).map((path) => resolve(path));
      const hiddenFiles = extra.filter(isFile);
      const hidden = outermost(
        [...HIDDEN, homedir(), home, ...privateDirs, agentDir, ...extra]
          .filter((dir): dir is string => dir !== undefined && isAbsolute(dir))
          .filter((dir) => !hiddenFiles.includes(dir)),
      );
      const lookup = { cwd: workspace, path: env.PATH };
      const pi = resolveCommand(spawn.command ?? "pi", lookup) ?? spawn.command ?? "pi";
      // Files of pi's install (its executable, its script) that a hidden directory would take away.
      const runtime = [pi, ...(spawn.args ?? [])]
        .filter((path) => isAbsolute(path) && isFile(path))
        .filter((path) => hidden.some((dir) => within(path, dir)))
        .map(installRoot);
      const agent = await privateAgentDir(agentDir, sessionDir);
      const args = [
        "--unshare-all",
        ...(network ? ["--share-net"] : []),
        "--die-with-parent",
        "--new-session",
        // Run as root, bwrap would keep capabilities inside; pi needs none.
        ...["--cap-drop", "ALL"],
        ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"],
        ...hidden.flatMap((dir) => ["--tmpfs", dir]),
        ...hiddenFiles.flatMap((file) => ["--ro-bind", "/dev/null", file]),
        // pi's home exists, empty and private: what it writes there is gone when it exits.
        ...(home !== undefined && isAbsolute(home) ? ["--dir", home] : []),
        ...[...runtime, ...(options.readOnly ?? [])].flatMap((path) => ["--ro-bind", path, path]),
        ...["--bind", agent.dir, agentDir],
        ...agent.shared.flatMap((path) => ["--ro-bind", path, path]),
        ...["--bind", workspace, workspace, "--bind", sessionDir, sessionDir],
        ...(options.writable ?? []).flatMap((path) => ["--bind", path, path]),
        ...["--chdir", workspace],
        "--",
        pi,
        ...(spawn.args ?? []),
      ];
      return { ...spawn, command, args };
    },
  };
}

/** Runs bwrap once the way sessions will, and turns a failure into advice. */
function probe(command: string, network: boolean): void {
  if (process.platform !== "linux") {
    throw unavailable("the bwrap sandbox needs Linux (bubblewrap uses Linux namespaces)");
  }
  const trial = spawnSync(
    command,
    [
      "--unshare-all",
      ...(network ? ["--share-net"] : []),
      "--die-with-parent",
      ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"],
      ...["--", "sh", "-c", "exit 0"],
    ],
    { encoding: "utf8", timeout: 10_000 },
  );
  if ((trial.error as { code?: string } | undefined)?.code === "ENOENT") {
    throw unavailable(
      `bubblewrap is not installed (no ${command}): install it, e.g. \`apt-get install bubblewrap\``,
    );
  }
  if (trial.error !== undefined || trial.status !== 0) {
    const said = (trial.stderr ?? "").trim().split("\n")[0] || String(trial.error ?? trial.status);
    throw unavailable(
      `bubblewrap cannot create the sandbox (${said}): user namespaces are off or restricted here; allow unprivileged user namespaces (\`sysctl kernel.unprivileged_userns_clone=1\` on Debian, \`user.max_user_namespaces\` above 0, an AppArmor profile for bwrap on Ubuntu 24.04+, or a container seccomp profile that permits unshare)`,
    );
  }
}

function unavailable(why: string): BridgeError {
  return new BridgeError(BridgeErrorCode.InvalidOptions, `Sandbox unavailable: ${why}`);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Whether `path` is `dir` or inside it. */
function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** The directories without those inside another one of them (hiding the outer one hides both). */
function outermost(dirs: readonly string[]): string[] {
  const unique = [...new Set(dirs.map((dir) => resolve(dir)))];
  return unique.filter((dir) => !unique.some((other) => other !== dir && within(dir, other)));
}

/**
 * What to show of a hidden install so that a file of it runs: a package's whole `node_modules`
 * (its dependencies are hoisted beside it), else the prefix of a `bin/` (`~/.nvm/…/v22`), else the
 * file's directory.
 */
function installRoot(file: string): string {
  const parts = file.split(sep);
  const modules = parts.indexOf("node_modules");
  if (modules > 0) return parts.slice(0, modules + 1).join(sep);
  const bin = parts.lastIndexOf("bin");
  if (bin > 1) return parts.slice(0, bin).join(sep);
  return parts.slice(0, -1).join(sep) || sep;
}
