#!/usr/bin/env node
// `npm test`: every check there is, in the order that fails fastest. Prints one closing
// "N passed, N failed" line summing the test runners, and exits non-zero on any failure. A failed
// step or package does not stop the others (turbo's --continue), so one run reports every failure.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { stripVTControlCharacters } from "node:util";
import { root } from "./runtimes.mjs";

const quickBench = { ...process.env, BENCH_QUICK: "1", TURBO_TELEMETRY_DISABLED: "1" };
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" };

/** Each step: a name and a command; `tests` marks steps whose output ends in a count line. */
const steps = [
  { name: "lint and format (Biome)", cmd: ["npx", "biome", "ci", "."] },
  {
    name: "npm ci quiet on Node 20: no EBADENGINE (scripts/check-engines.mjs)",
    cmd: ["node", "scripts/check-engines.mjs"],
  },
  {
    // The same installs happen on first use; done here, no test's time limit includes them.
    name: "tools that need Node 22, installed apart (scripts/install-apart.mjs)",
    cmd: [
      "node",
      "scripts/install-apart.mjs",
      "packages/testing/pi-releases/pi-1",
      "packages/testing/pi-releases/pi-1.0",
      "packages/testing/pi-releases/pi-0.87",
      "apps/docs/site-deps:apps/docs/node_modules",
    ],
  },
  {
    name: "build and typecheck (turbo)",
    cmd: ["npx", "turbo", "run", "build", "typecheck", "--output-logs=errors-only"],
  },
  {
    name: "API reports current (scripts/api-report.mjs)",
    cmd: ["node", "scripts/api-report.mjs", "--check"],
  },
  { name: "no import cycles (dpdm)", cmd: ["npm", "run", "--silent", "check:cycles"] },
  {
    name: "house rules: line limit, folders one way (scripts/check-house.mjs)",
    cmd: ["node", "scripts/check-house.mjs"],
  },
  {
    name: "the house rules' own tests",
    cmd: ["node", "--test", "scripts/check-house.test.mjs"],
  },
  { name: "typecheck tests and benchmarks", cmd: ["npx", "tsc", "-p", "tsconfig.test.json"] },
  {
    name: "tests on Node 20, Node 22, Deno and Bun",
    cmd: [
      "npx",
      "turbo",
      "run",
      "test",
      "--concurrency=1",
      "--continue=dependencies-successful",
      "--output-logs=full",
      "--summarize",
    ],
    tests: true,
  },
  {
    name: "package checks (publint, attw, deno publish --dry-run)",
    cmd: ["node", "scripts/check-packages.mjs"],
  },
  {
    name: "benchmark smoke run",
    cmd: [
      "npx",
      "turbo",
      "run",
      "bench",
      "--concurrency=1",
      "--continue=dependencies-successful",
      "--output-logs=full",
    ],
    env: quickBench,
  },
];

let passed = 0;
let failed = 0;
const failedSteps = [];
/** The failed tests' reports, printed again at the very end: a CI log often keeps only its tail. */
const failureReports = [];
const started = Date.now();
for (const step of steps) {
  console.log(`\n##### ${step.name}`);
  const t = Date.now();
  const run = spawnSync(step.cmd[0], step.cmd.slice(1), {
    cwd: root,
    env: step.env ?? env,
    stdio: step.tests ? ["ignore", "pipe", "inherit"] : "inherit",
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  const failedBefore = failed;
  if (step.tests) {
    process.stdout.write(run.stdout);
    for (const counts of countByTask(run.stdout)) {
      passed += counts.passed;
      failed += counts.failed;
      failureReports.push(...counts.report);
    }
    printTaskTimes(run.stdout);
  }
  console.log(
    `##### ${step.name}: ${run.status === 0 ? "ok" : "FAILED"} in ${((Date.now() - t) / 1000).toFixed(0)} s`,
  );
  if (run.status !== 0) {
    failedSteps.push(step.name);
    // A step that failed without a counted test failure (a crash, a lint error) counts as one.
    if (failed === failedBefore) failed += 1;
  }
}
console.log(`\nfinished in ${((Date.now() - started) / 1000).toFixed(0)} s`);
if (failedSteps.length > 0) console.log(`failed steps: ${failedSteps.join("; ")}`);
for (const line of failureReports) console.log(line);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);

/**
 * The test counts of each turbo task, read from its own closing lines: our runtime runner's
 * "all runtimes: N passed, N failed", Web Test Runner's "N passed, N failed", or node:test's
 * "# pass N" / "# fail N".
 */
function countByTask(output) {
  const lines = new Map();
  for (const line of output.split("\n")) {
    const m = /^(@pi-kit\/[\w-]+):test: (.*)$/.exec(stripVTControlCharacters(line));
    if (!m) continue;
    if (!lines.has(m[1])) lines.set(m[1], []);
    lines.get(m[1]).push(m[2]);
  }
  const counts = [];
  for (const [task, taskLines] of lines) {
    const text = taskLines.join("\n");
    const pick = (re) => [...text.matchAll(re)].at(-1);
    const runtimes = pick(/all runtimes: (\d+) passed, (\d+) failed/g);
    const failures = failedTests(taskLines);
    const wtr = pick(/test files \| (\d+) passed, (\d+) failed/g);
    const nodePass = pick(/^# pass (\d+)$/gm);
    const nodeFail = pick(/^# fail (\d+)$/gm);
    const c = { passed: 0, failed: 0, report: [] };
    const add = (p, f) => {
      c.passed += Number(p);
      c.failed += Number(f);
    };
    // A package can have a runtime-matrix run and a browser run; node:test lines only count
    // when they are not already inside the matrix runner's totals.
    if (runtimes) add(runtimes[1], runtimes[2]);
    else if (nodePass) add(nodePass[1], nodeFail?.[1] ?? 0);
    if (wtr) add(wtr[1], wtr[2]);
    console.log(`${task}: ${c.passed} passed, ${c.failed} failed`);
    for (const [name, detail] of failures) {
      c.report.push(`${task} failed: ${name}`, ...detail.map((line) => `    ${line}`));
    }
    for (const line of c.report) console.log(line);
    counts.push(c);
  }
  return counts;
}

/** Each task's time, from the run summary turbo's `--summarize` wrote (its path is in the output). */
function printTaskTimes(output) {
  const path = /^\s*Summary:\s+(\S+\.json)\s*$/m.exec(stripVTControlCharacters(output))?.[1];
  if (path === undefined) return;
  const { tasks } = JSON.parse(readFileSync(path, "utf8"));
  const times = tasks
    .filter((task) => task.execution?.endTime !== undefined)
    .map(
      (task) =>
        `${task.taskId} ${((task.execution.endTime - task.execution.startTime) / 1000).toFixed(0)} s`,
    );
  console.log(`task times: ${times.join(", ")}`);
}

/**
 * The failed tests in one task's output, each with the first lines of node:test's report of why,
 * so that the closing summary (often all a CI log keeps) says which test failed and where: node:test's
 * "not ok N - name", Bun's "(fail) name", Deno's "name ... FAILED", Web Test Runner's "❌ name".
 */
function failedTests(taskLines) {
  const failures = new Map();
  let detail;
  for (const raw of taskLines) {
    const line = stripVTControlCharacters(raw).trim();
    if (detail !== undefined) {
      // node:test's YAML block after "not ok": keep its error and location lines, not the timings.
      if (line === "..." || detail.length >= 40) detail = undefined;
      else if (!/^(---|duration_ms|type|failureType|code|name):?|node:internal/.test(line)) {
        detail.push(line.slice(0, 240));
      }
      continue;
    }
    const tap = /^not ok \d+ - (.*)$/.exec(line)?.[1];
    if (tap && !failures.has(tap)) {
      detail = [];
      failures.set(tap, detail);
      continue;
    }
    const name =
      /^\(fail\) (.*?)(?: \[[\d.]+m?s\])?$/.exec(line)?.[1] ??
      /^(.*) \.\.\. FAILED/.exec(line)?.[1] ??
      /^❌ (.*)$/.exec(line)?.[1];
    if (name && !failures.has(name)) failures.set(name, []);
  }
  return failures;
}
