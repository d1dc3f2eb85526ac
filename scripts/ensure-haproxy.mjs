#!/usr/bin/env node
// Makes sure the cluster's routing tests can run: haproxy installed (Debian's package when this
// is root on Debian, as CI is). Prints its version. The tests start their own haproxy with
// deploy/haproxy/haproxy.cfg.
import { ensureCommand } from "./apt-install.mjs";

console.log(ensureCommand("haproxy", ["-v"], "haproxy", "the cluster's routing tests"));
