/**
 * The unhandled-rejection tripwire of the test runs: preloaded into every test process on every
 * runtime (`scripts/test-runtimes.mjs --preload`), it fails the test during which a promise
 * rejected with nobody to handle it, and the run with it. A library that leaves one behind takes
 * its host down under Node's defaults, so a test run must not shrug it off.
 */
import process from "node:process";
import { afterEach } from "node:test";

const deno = (globalThis as { Deno?: { exitCode: number } }).Deno;
const caught: unknown[] = [];
let reported = 0;

function trip(reason: unknown): void {
  caught.push(reason);
  process.exitCode = 1;
  if (deno !== undefined) deno.exitCode = 1;
  console.error(`tripwire: unhandled rejection: ${describe(reason)}`);
}

function describe(reason: unknown): string {
  return reason instanceof Error ? (reason.stack ?? String(reason)) : String(reason);
}

// Deno reports rejections through the web event, and its runner fails the test itself unless the
// event is cancelled (so it is not; hooks from a preload do not reach Deno's tests). Node reports
// them through `process`, where this hook fails the test. Bun's runner fails the test before any
// listener hears of it.
if (deno !== undefined) {
  globalThis.addEventListener("unhandledrejection", (event) => trip(event.reason));
} else {
  process.on("unhandledRejection", trip);
}

afterEach(async () => {
  // A rejection is reported a task after it happened: let one pass before looking.
  await new Promise((resolve) => setTimeout(resolve, 0));
  if (caught.length === reported) return;
  const fresh = caught.slice(reported);
  reported = caught.length;
  throw new Error(
    `tripwire: ${fresh.length} unhandled rejection(s) during this test: ${fresh.map(describe).join("\n")}`,
  );
});

process.on("exit", () => {
  if (caught.length > 0) process.exitCode = 1;
});
