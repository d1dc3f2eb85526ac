#!/usr/bin/env node
// Makes sure the runtime matrix can run the bridge protocol document's Python example: Debian's
// python3-websockets for the system Python (installed when this is root on Debian, as CI is).
// Prints the Python and websockets versions.
import { spawnSync } from "node:child_process";
import { aptInstall } from "./apt-install.mjs";

const PYTHON = "/usr/bin/python3";
const probe = () =>
  spawnSync(
    PYTHON,
    ["-c", "import sys, websockets; print(sys.version.split()[0], websockets.__version__)"],
    {
      encoding: "utf8",
    },
  );
if (probe().status !== 0) {
  aptInstall(
    "python3-websockets",
    "Python's websockets not found: the runtime matrix runs docs/bridge-protocol.md's Python example with it. Install it (Debian/Ubuntu: `sudo apt-get install python3-websockets`).",
  );
}
const versions = probe();
if (versions.status !== 0) {
  console.error(`${PYTHON} still cannot import websockets:\n${versions.stderr}`);
  process.exit(1);
}
console.log(`python ${versions.stdout.trim().replace(" ", ", websockets ")}`);
