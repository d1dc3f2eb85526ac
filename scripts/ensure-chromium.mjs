#!/usr/bin/env node
// Finds Chromium for the browser tests, or installs Debian's package when that is possible
// (root on Debian), or stops with a message that says what to do. Never downloads a browser
// build of its own. Prints the path; sets nothing globally.
import { execFileSync } from "node:child_process";
import { aptInstall } from "./apt-install.mjs";
import { findChromium } from "./chromium.mjs";

export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  aptInstall(
    "chromium",
    "Chromium not found. Install it (Debian/Ubuntu: `sudo apt-get install chromium`) or set CHROME_PATH to a Chromium or Chrome binary.",
  );
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
