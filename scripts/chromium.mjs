// How this repository runs Chromium: where to find it and the flags it needs here (root, no GPU,
// a closed network). Shared by the browser tests, the end-to-end tests, benchmarks and screenshots.
import { existsSync } from "node:fs";

/** Flags for headless Chromium as root on a machine without GPU or outside network. */
export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
  "--no-default-browser-check",
];

const candidates = () => [
  process.env.CHROME_PATH,
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
];

/** The Chromium binary: `CHROME_PATH`, else the usual system paths; undefined when none exists. */
export function findChromium() {
  return candidates().find((file) => file && existsSync(file));
}

/** The Chromium binary, or an error that says how to get one. */
export function chromiumPath() {
  const found = findChromium();
  if (found === undefined) {
    throw new Error(
      "Chromium not found: run `node scripts/ensure-chromium.mjs` or set CHROME_PATH.",
    );
  }
  return found;
}
