#!/usr/bin/env node
// Makes sure the bridge's sandbox tests can run: bubblewrap installed (Debian's package when
// this is root on Debian, as CI is), and user namespaces allowed. Otherwise stops with a message
// that says what to do. Prints bwrap's version.
import { spawnSync } from "node:child_process";
import { ensureCommand } from "./apt-install.mjs";

const version = ensureCommand("bwrap", ["--version"], "bubblewrap", "the bridge's sandbox tests");
const trial = spawnSync(
  "bwrap",
  [
    "--unshare-all",
    "--share-net",
    "--ro-bind",
    "/",
    "/",
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "true",
  ],
  { encoding: "utf8" },
);
if (trial.status !== 0) {
  console.error(
    `bubblewrap cannot create namespaces here (${trial.stderr.trim()}): the bridge's sandbox tests need unprivileged user namespaces.`,
  );
  process.exit(1);
}
console.log(version);
