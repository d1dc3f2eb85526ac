/**
 * Runs the `git` binary on a shadow repository: `GIT_DIR` outside the workspace and the workspace
 * as `GIT_WORK_TREE`, so the user's own `.git` (and their config's hooks) are never involved.
 */
import { spawn } from "node:child_process";

/** What a git command printed, and how it ended. */
export interface GitResult {
  readonly stdout: Buffer;
  readonly code: number;
  readonly stderr: string;
}

/** How to run git on one shadow repository. */
export interface ShadowGit {
  /** Runs `git args` (fed `stdin`); rejects with stderr unless it exits with one of `okCodes` (0). */
  run(
    args: readonly string[],
    options?: { readonly okCodes?: readonly number[]; readonly stdin?: string },
  ): Promise<GitResult>;
}

/** A {@link ShadowGit} for `gitDir` and `workTree`, spawning `binary`. */
export function shadowGit(binary: string, gitDir: string, workTree: string): ShadowGit {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !key.startsWith("GIT_")) env[key] = value;
  Object.assign(env, {
    GIT_DIR: gitDir,
    GIT_WORK_TREE: workTree,
    // The user's global and system config (hooks, filters, signing) stay out of it.
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_AUTHOR_NAME: "pi-kit",
    GIT_AUTHOR_EMAIL: "checkpoints@pi-kit.invalid",
    GIT_COMMITTER_NAME: "pi-kit",
    GIT_COMMITTER_EMAIL: "checkpoints@pi-kit.invalid",
  });
  return {
    run(args, options = {}) {
      const okCodes = options.okCodes ?? [0];
      return new Promise((resolve, reject) => {
        const child = spawn(binary, [...args], {
          cwd: workTree,
          env,
          stdio: ["pipe", "pipe", "pipe"],
        });
        // git may exit without reading it all (a failure): that is its exit code's business.
        child.stdin.on("error", () => undefined);
        child.stdin.end(options.stdin ?? "");
        const out: Buffer[] = [];
        const err: Buffer[] = [];
        child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
        child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
        child.on("error", reject);
        child.on("close", (code) => {
          const result = {
            stdout: Buffer.concat(out),
            code: code ?? -1,
            stderr: Buffer.concat(err).toString("utf8"),
          };
          if (okCodes.includes(result.code)) resolve(result);
          else reject(new Error(`git ${args[0]} failed (${result.code}): ${result.stderr.trim()}`));
        });
      });
    },
  };
}
