/**
 * Checkpoints (issue 26): in a 10,000-file workspace with 10 files changed per round, a
 * checkpoint costs at most 2x `git add -A && git commit` of the same tree, and listing the
 * changes since the session start at most 1.5x `git diff --stat` of the work tree against the
 * same start, both measured in the same run on a plain repository (interleaved rounds, medians). BENCH_QUICK=1: 1,000 files, targets informative.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Checkpoints } from "@pi-kit/client/node";
import { compareAsync, quick, report } from "../lib/measure.ts";

const FILES = quick ? 1_000 : 10_000;
const CHANGED = 10;
const root = mkdtempSync(join(tmpdir(), "pi-kit-checkpoints-bench-"));
const env = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
const git = (cwd: string, ...args: string[]): void => {
  execFileSync("git", args, { cwd, env, stdio: "ignore" });
};

/** A workspace of `FILES` small source files in 100 directories. */
function workspace(dir: string): string {
  for (let i = 0; i < FILES; i++) {
    const sub = join(dir, `pkg-${i % 100}`);
    if (i < 100) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `file-${i}.ts`), `export const value${i} = ${i};\n// line two\n`);
  }
  return dir;
}

/** Changes `CHANGED` files of `dir` (a different set and content each round). */
let round = 0;
function change(dir: string): void {
  round++;
  for (let k = 0; k < CHANGED; k++) {
    const i = (round * 97 + k * 31) % FILES;
    writeFileSync(
      join(dir, `pkg-${i % 100}`, `file-${i}.ts`),
      `export const value${i} = ${round};\n`,
    );
  }
}

try {
  const shadowed = workspace(join(root, "shadowed"));
  const plain = workspace(join(root, "plain"));
  git(plain, "init", "-q");
  git(plain, "add", "-A");
  git(plain, "-c", "user.name=b", "-c", "user.email=b@x", "commit", "-qm", "start");
  git(plain, "tag", "start");
  const checkpoints = await Checkpoints.open({ workspace: shadowed, dir: join(root, "shadow") });
  const start = await checkpoints.checkpoint("session start");

  const timed = async (
    before: () => void,
    op: () => Promise<unknown> | unknown,
  ): Promise<number> => {
    before();
    const t = performance.now();
    await op();
    return performance.now() - t;
  };
  const commit = await compareAsync({
    checkpoint: () =>
      timed(
        () => change(shadowed),
        () => checkpoints.checkpoint(`run ${round}`),
      ),
    gitCommit: () =>
      timed(
        () => change(plain),
        () => {
          git(plain, "add", "-A");
          git(plain, "-c", "user.name=b", "-c", "user.email=b@x", "commit", "-qm", "run");
        },
      ),
  });
  const listing = await compareAsync({
    changes: () =>
      timed(
        () => change(shadowed),
        () => checkpoints.changes(start.id),
      ),
    gitDiffStat: () =>
      timed(
        () => change(plain),
        // The same tree as the listing compares: the work tree against the session's start.
        () => git(plain, "diff", "--stat", "start"),
      ),
  });
  console.log(
    `${FILES} files, ${CHANGED} changed per round: checkpoint ${commit.checkpoint.toFixed(1)} ms vs git add -A && git commit ${commit.gitCommit.toFixed(1)} ms; changes ${listing.changes.toFixed(1)} ms vs git diff --stat ${listing.gitDiffStat.toFixed(1)} ms`,
  );
  report("checkpoints", [
    {
      name: `checkpoint of ${FILES} files / git add -A && git commit`,
      value: commit.checkpoint / commit.gitCommit,
      op: "<=",
      target: 2,
      unit: "x",
    },
    {
      name: "listing the changes / git diff --stat",
      value: listing.changes / listing.gitDiffStat,
      op: "<=",
      target: 1.5,
      unit: "x",
    },
  ]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
