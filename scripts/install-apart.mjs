// Installs a folder's package-lock.json on first use, apart from the workspace: for tools that
// need a newer Node than the root `npm ci` runs on (which would warn EBADENGINE for each of their
// packages). The install is kept until the lockfile changes, and safe when several processes ask
// at once: one installs (under a lock directory) into a temporary folder and renames the result
// into place; the others wait. @pi-kit/testing (src/launcher/pinned-pi.ts) runs it as a command
// for the pi releases this repository pins, the docs site's scripts/astro.mjs for Astro.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Written into an installed `node_modules`: the hash of the lockfile it was installed from. */
const STAMP = ".pi-kit-lock-hash";
const WAIT_MS = 15 * 60_000;

/**
 * Makes `modules` (a `node_modules` directory) hold what `dir`'s package.json and
 * package-lock.json install, running `npm ci` when it does not yet. Returns `modules`.
 */
export function installApart(dir, modules = join(dir, "node_modules")) {
  const hash = createHash("sha256");
  for (const file of ["package.json", "package-lock.json"])
    hash.update(readFileSync(join(dir, file)));
  const digest = hash.digest("hex").slice(0, 16);
  if (installed(dir, modules, digest)) return modules;
  withLock(join(dir, ".install.lock"), () => {
    if (!installed(dir, modules, digest)) install(dir, modules, digest);
  });
  return modules;
}

/**
 * Whether `modules` was installed from this lockfile and still holds its dependencies (a root
 * `npm install` prunes what it did not install from a workspace's `node_modules`).
 */
function installed(dir, modules, digest) {
  if (stampOf(modules) !== digest) return false;
  const { dependencies = {} } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  return Object.keys(dependencies).every((name) => existsSync(join(modules, name, "package.json")));
}

function stampOf(modules) {
  try {
    return readFileSync(join(modules, STAMP), "utf8").trim();
  } catch {
    return undefined;
  }
}

function install(dir, modules, digest) {
  const work = mkdtempSync(join(dir, ".install-"));
  try {
    for (const file of ["package.json", "package-lock.json"]) {
      writeFileSync(join(work, file), readFileSync(join(dir, file)));
    }
    process.stderr.write(`installing ${join(dir, "package-lock.json")} (first use only)…\n`);
    try {
      execFileSync(
        process.platform === "win32" ? "npm.cmd" : "npm",
        ["ci", "--prefix", work, "--no-audit", "--no-fund", "--loglevel=error"],
        { cwd: work, env: npmEnv(), stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" },
      );
    } catch (error) {
      throw new Error(
        `npm ci in ${dir} failed (it needs the npm registry):\n${error.stderr || error.stdout || error}`,
      );
    }
    writeFileSync(join(work, "node_modules", STAMP), digest);
    // Move what is there aside first: rename cannot replace a non-empty directory.
    if (existsSync(modules)) renameSync(modules, join(work, "outdated"));
    renameSync(join(work, "node_modules"), modules);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The environment without what an enclosing npm script exports about its own project. */
function npmEnv() {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => {
      const lower = key.toLowerCase();
      return (
        !lower.startsWith("npm_config_") ||
        /registry|proxy|cafile|strict_ssl|cache|userconfig|globalconfig|_auth/.test(lower)
      );
    }),
  );
}

function withLock(lock, fn) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
    if (!holderAlive(lock)) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for the install under ${lock}`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
  try {
    writeFileSync(join(lock, "pid"), String(process.pid));
    fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Whether the lock's process still runs (a lock made in the last minute without its pid counts). */
function holderAlive(lock) {
  let pid;
  try {
    pid = Number(readFileSync(join(lock, "pid"), "utf8"));
  } catch {
    try {
      return Date.now() - statSync(lock).mtimeMs < 60_000;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

// As a command: `node scripts/install-apart.mjs dir[:node_modules]…` installs each folder now
// (npm test does so before the tests, so that no test waits for an install).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const arg of process.argv.slice(2)) {
    const [dir, modules] = arg.split(":");
    installApart(resolve(dir), modules ? resolve(modules) : undefined);
  }
}
