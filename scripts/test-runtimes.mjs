#!/usr/bin/env node
// Runs one package's tests, the same files, on Node 20, Node 22, Deno and Bun, and prints one
// "N passed, N failed" line.
// Usage: test-runtimes.mjs [--runtimes node20,node22,deno,bun] [--preload file] [--once files]
//        [--serial files] [dir or test file...]
// Files run two at a time on Node and Deno (most of a live test's time is spent waiting on pi, so
// a 2-core machine has room for a second file); PI_KIT_TEST_CONCURRENCY changes that.
// --serial (comma-separated test files) runs those alone, after the others: tests that measure
// time (leases, keepalives, failover) or load the machine on purpose.
// --preload loads a module into every test process first (for example test-support/tripwire.ts).
// --once (comma-separated test files) runs those files on the first runtime only: slow live tests
// of runtime-neutral logic (ticket renewal, viewers, history) whose runtime boundaries (child
// processes, sockets, serving, crypto) other files cover on every runtime. It keeps CI's time
// for what differs between runtimes.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { bun, deno, node22, root, systemNode } from "./runtimes.mjs";

const args = process.argv.slice(2);
let runtimes = ["node20", "node22", "deno", "bun"];
// The last --runtimes wins, so `npm test -- --runtimes deno` narrows a package's default.
for (let flag = args.indexOf("--runtimes"); flag !== -1; flag = args.indexOf("--runtimes")) {
  runtimes = args[flag + 1].split(",");
  args.splice(flag, 2);
}
const preloads = [];
for (let flag = args.indexOf("--preload"); flag !== -1; flag = args.indexOf("--preload")) {
  preloads.push(resolve(args[flag + 1]));
  args.splice(flag, 2);
}
const once = new Set();
for (let flag = args.indexOf("--once"); flag !== -1; flag = args.indexOf("--once")) {
  for (const file of args[flag + 1].split(",")) once.add(relative(root, resolve(file)));
  args.splice(flag, 2);
}
const serial = new Set();
for (let flag = args.indexOf("--serial"); flag !== -1; flag = args.indexOf("--serial")) {
  for (const file of args[flag + 1].split(",")) serial.add(relative(root, resolve(file)));
  args.splice(flag, 2);
}
const concurrency = Number(process.env.PI_KIT_TEST_CONCURRENCY ?? 2);
const dirs = (args.length > 0 ? args : ["test"]).map((d) => resolve(d));

// A directory's test files, or a test file named on its own.
function testFiles(dir) {
  if (!existsSync(dir)) return [];
  if (dir.endsWith(".test.ts") && !statSync(dir).isDirectory()) return [dir];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".test.ts"))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}
const files = dirs.flatMap(testFiles).map((f) => relative(root, f));
if (files.length === 0) {
  console.error(`No *.test.ts files under ${dirs.join(", ")}`);
  process.exit(1);
}
for (const [flag, named] of [
  ["--once", once],
  ["--serial", serial],
]) {
  for (const file of named) {
    if (!files.includes(file)) {
      console.error(`${flag} names ${file}, which is not a test file here`);
      process.exit(1);
    }
  }
}
/** The files a leg runs: all on the first runtime, the others skip the `--once` files. */
const filesOf = (name) => (name === runtimes[0] ? files : files.filter((f) => !once.has(f)));

const sys = systemNode();
const n22 = node22();
// The 0.73.1 pi in the test kit must run on Node 20: tell it where that is.
const env = { ...process.env, PI_KIT_NODE20: sys.major === 20 ? sys.path : "" };
const condition = "--conditions=@pi-kit/source";
/** The longest one test may take (the slowest live tests take about a minute on a loaded machine). */
const TEST_TIMEOUT_MS = 300_000;

/** Each runtime's command for a list of test files. */
const legs = {
  node20: (files, jobs) => ({
    label: `Node ${sys.version}`,
    cmd: sys.path,
    argv: [
      condition,
      "--import",
      "tsx",
      ...preloads.flatMap((p) => ["--import", p]),
      "--test",
      `--test-concurrency=${jobs}`,
      // A test that hangs fails by name instead of stalling the whole run.
      `--test-timeout=${TEST_TIMEOUT_MS}`,
      ...files,
    ],
    env: { PI_KIT_EXPECT_NODE_MAJOR: String(sys.major) },
    count: countNode,
  }),
  node22: (files, jobs) => ({
    label: `Node ${n22.version}`,
    cmd: n22.path,
    argv: [
      condition,
      ...preloads.flatMap((p) => ["--import", p]),
      "--test",
      `--test-concurrency=${jobs}`,
      // A test that hangs fails by name instead of stalling the whole run.
      `--test-timeout=${TEST_TIMEOUT_MS}`,
      ...files,
    ],
    env: { PI_KIT_EXPECT_NODE_MAJOR: String(n22.major) },
    count: countNode,
  }),
  deno: (files, jobs) => ({
    label: "Deno",
    cmd: deno,
    argv: [
      "test",
      "-A",
      "--no-check",
      ...(jobs > 1 ? ["--parallel"] : []),
      ...preloads.flatMap((p) => ["--preload", p]),
      ...files,
    ],
    env: { DENO_JOBS: String(jobs) },
    count: countDeno,
  }),
  // Bun runs a process's test files one after another.
  bun: (files) => ({
    label: "Bun",
    cmd: bun,
    argv: [
      "test",
      "--conditions",
      "@pi-kit/source",
      "--timeout",
      "60000",
      ...preloads.flatMap((p) => ["--preload", p]),
      ...files.map((f) => `./${f}`),
    ],
    env: {},
    count: countBun,
  }),
};
if (sys.major !== 20)
  console.warn(`note: the system Node is ${sys.version}, not 20; its leg runs on that.`);

let passed = 0;
let failed = 0;
for (const name of runtimes) {
  if (!legs[name]) throw new Error(`unknown runtime ${name}`);
  const legFiles = filesOf(name);
  const skipped = files.length - legFiles.length;
  const alone = legFiles.filter((f) => serial.has(f));
  const together = legFiles.filter((f) => !serial.has(f));
  const { label } = legs[name]([], 1);
  console.log(
    `\n=== ${label}: ${legFiles.length} files${skipped > 0 ? ` (${skipped} run once, on the first runtime)` : ""}${alone.length > 0 ? `, ${alone.length} alone` : ""}`,
  );
  const started = Date.now();
  const counts = { passed: 0, failed: 0 };
  const statuses = [];
  for (const [group, jobs] of [
    [together, concurrency],
    [alone, 1],
  ]) {
    if (group.length === 0) continue;
    const leg = legs[name](group, jobs);
    const run = spawnSync(leg.cmd, leg.argv, {
      cwd: root,
      env: { ...env, ...leg.env },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 256 * 1024 * 1024,
    });
    const output = `${run.stdout}${run.stderr}`;
    const groupCounts = leg.count(output);
    const groupOk = run.status === 0 && groupCounts.failed === 0 && groupCounts.passed > 0;
    // Keep CI logs short: print the whole output only when something failed.
    if (!groupOk) process.stdout.write(output);
    counts.passed += groupCounts.passed;
    // A run that failed without a counted test failure (a crash, a file that did not load) counts as one.
    counts.failed += groupCounts.failed + (groupOk || groupCounts.failed > 0 ? 0 : 1);
    statuses.push(run.status);
  }
  console.log(
    `${label}: ${counts.passed} passed, ${counts.failed} failed (exit ${statuses.join(", ")}, ${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
  passed += counts.passed;
  failed += counts.failed;
}
console.log(`\nall runtimes: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

function countNode(out) {
  return { passed: last(out, /^# pass (\d+)$/gm), failed: last(out, /^# fail (\d+)$/gm) };
}
function countDeno(out) {
  // Deno ends with "ok | 12 passed (30 steps) | 0 failed (2 steps)": a describe() block is a
  // test and its it()s are steps, so a file of plain test()s and one of describe()s both count.
  const clean = stripVTControlCharacters(out);
  const summary = [
    ...clean.matchAll(/(\d+) passed(?: \((\d+) steps?\))? \| (\d+) failed(?: \((\d+) steps?\))?/g),
  ].at(-1);
  if (!summary) return { passed: 0, failed: 0 };
  const [, tests, steps = 0, failedTests, failedSteps = 0] = summary;
  return {
    passed: Number(tests) + Number(steps),
    failed: Number(failedTests) + Number(failedSteps),
  };
}
function countBun(out) {
  return { passed: last(out, /^\s*(\d+) pass$/gm), failed: last(out, /^\s*(\d+) fail$/gm) };
}
function last(text, re) {
  let value = 0;
  for (const m of text.matchAll(re)) value = Number(m[1]);
  return value;
}
