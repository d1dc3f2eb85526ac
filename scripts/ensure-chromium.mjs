#!/usr/bin/env node
// Finds Chromium for the browser tests, or installs Debian's package when that is possible
// (root on Debian), or stops with a message that says what to do. Never downloads a browser
// build of its own. Prints the path; sets nothing globally.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { findChromium } from "./chromium.mjs";

function isDebianRoot() {
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

export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  if (!isDebianRoot()) {
    console.error(
      "Chromium not found. Install it (Debian/Ubuntu: `sudo apt-get install chromium`) or set CHROME_PATH to a Chromium or Chrome binary.",
    );
    process.exit(1);
  }
  console.log("Chromium not found: installing Debian's chromium package with apt-get…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", "chromium"],
  ]) {
    const run = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (run.status !== 0) {
      console.error(
        `apt-get ${args.join(" ")} failed; install chromium by hand or set CHROME_PATH.`,
      );
      process.exit(1);
    }
  }
  const installed = findChromium();
  if (!installed) {
    console.error("apt-get installed chromium but no binary was found; set CHROME_PATH.");
    process.exit(1);
  }
  return installed;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = ensureChromium();
  console.log(
    `Chromium: ${path} (${execFileSync(path, ["--version"], { encoding: "utf8" }).trim()})`,
  );
}
