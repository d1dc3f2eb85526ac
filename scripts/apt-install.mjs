// Installs a missing Debian package for the tests, where that is possible (root on Debian or a
// derivative), the way CI's clean machines need it; elsewhere says what to install.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

/** Whether this is root on Debian or a derivative, where apt-get can install packages. */
export function isDebianRoot() {
  const debian =
    existsSync("/etc/debian_version") || /ID(_LIKE)?=.*debian/.test(safeRead("/etc/os-release"));
  return debian && typeof process.getuid === "function" && process.getuid() === 0;
}

function safeRead(file) {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/**
 * Installs `pkg` with apt-get, or exits with `hint` (what to do by hand) when this is not root
 * on Debian or apt-get fails.
 */
export function aptInstall(pkg, hint) {
  if (!isDebianRoot()) {
    console.error(hint);
    process.exit(1);
  }
  console.log(`Installing Debian's ${pkg} package with apt-get…`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", pkg],
  ]) {
    const run = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (run.status !== 0) {
      console.error(`apt-get ${args.join(" ")} failed. ${hint}`);
      process.exit(1);
    }
  }
}

/**
 * Makes sure `command` runs (`versionArgs` is how it says its version), installing Debian's
 * `pkg` when it is missing; `purpose` says which tests need it. Returns its version's first line.
 */
export function ensureCommand(command, versionArgs, pkg, purpose) {
  const version = () => spawnSync(command, versionArgs, { encoding: "utf8" });
  if (version().error !== undefined) {
    aptInstall(
      pkg,
      `${command} not found: ${purpose} need it. Install it (Debian/Ubuntu: \`sudo apt-get install ${pkg}\`).`,
    );
  }
  return version().stdout.split("\n")[0].trim();
}
