#!/usr/bin/env node
// Makes sure the bridge's cluster tests can run: redis-server installed (Debian's package when
// this is root on Debian, as CI is). Prints its version. The tests start their own server on a
// loopback port.
import { ensureCommand } from "./apt-install.mjs";

console.log(
  ensureCommand("redis-server", ["--version"], "redis-server", "the bridge's cluster tests"),
);
