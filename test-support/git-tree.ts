/**
 * What live checkpoint tests compare against: a directory tree's bytes and modes, and how a
 * plain, independent git repository sees the changes of its index (`git diff --cached -M`).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { FileChange } from "@pi-kit/protocol/bridge";

/** Every file and directory under `root` (but `skip`), with its mode and a hash of its bytes. */
export function tree(
  root: string,
  skip: (path: string) => boolean = () => false,
): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      const path = relative(root, full);
      if (skip(path)) continue;
      const info = statSync(full);
      if (info.isDirectory()) {
        out.set(`${path}/`, "dir");
        walk(full);
      } else {
        const hash = createHash("sha256").update(readFileSync(full)).digest("hex");
        out.set(path, `${(info.mode & 0o777).toString(8)} ${hash}`);
      }
    }
  };
  walk(root);
  return out;
}

/** Runs `git` in `cwd` without the user's or the system's config; resolves its stdout. */
export const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
  });

/**
 * The changes as `git diff --cached -M` of a plain repository sees them, run in `repo` (a
 * subdirectory of one with `--relative` among `extra`: its changes, relative to it).
 */
export function gitChanges(repo: string, extra: readonly string[] = []): FileChange[] {
  const diff = (...args: string[]) =>
    git(repo, "diff", "--cached", "-M", ...extra, ...args, "HEAD")
      .trim()
      .split("\n");
  const numstat = diff("--numstat");
  const statuses = diff("--name-status");
  return statuses
    .filter((line) => line !== "")
    .map((line, i) => {
      const [code, first, second] = line.split("\t") as [string, string, string | undefined];
      const [added, deleted] = (numstat[i] as string).split("\t") as [string, string];
      const binary = added === "-";
      const status = { A: "added", M: "modified", D: "deleted", R: "renamed" }[
        code[0] as "A"
      ] as FileChange["status"];
      return {
        path: second ?? first,
        ...(second === undefined ? {} : { oldPath: first }),
        status,
        additions: binary ? 0 : Number(added),
        deletions: binary ? 0 : Number(deleted),
        binary,
      };
    })
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Makes `repo`'s work tree a copy of `from`'s (but its `.git`), all of it staged. */
export function mirrorInto(repo: string, from: string, tarball: string): void {
  execFileSync("tar", ["-C", from, "--exclude=./.git", "-cf", tarball, "."]);
  for (const name of readdirSync(repo))
    if (name !== ".git") execFileSync("rm", ["-rf", join(repo, name)]);
  execFileSync("tar", ["-C", repo, "-xf", tarball]);
  git(repo, "add", "-A");
}
