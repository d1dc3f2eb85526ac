/**
 * The unhandled-rejection tripwire every client test run loads (`--preload
 * test-support/tripwire.ts`) must itself fail a run that leaves a rejection unhandled: each
 * runtime's leg runs a fixture that does, under that runtime with the tripwire preloaded.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import process from "node:process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { resolveNode22 } from "@pi-kit/testing";

const tripwire = fileURLToPath(new URL("../../../test-support/tripwire.ts", import.meta.url));
const fixture = fileURLToPath(new URL("./fixtures/leaks-rejections.fixture.ts", import.meta.url));
const runtime = "Deno" in globalThis ? "deno" : "Bun" in globalThis ? "bun" : "node";

/** The command that runs the fixture with the tripwire on `which`. */
function command(which: "node" | "node22" | "deno" | "bun"): [string, string[]] {
  switch (which) {
    case "node":
      return [
        process.execPath,
        ["--import", "tsx", "--import", tripwire, "--test", "--test-reporter=tap", fixture],
      ];
    case "node22":
      return [resolveNode22(), ["--import", tripwire, "--test", "--test-reporter=tap", fixture]];
    case "deno":
      return [process.execPath, ["test", "-A", "--no-check", "--preload", tripwire, fixture]];
    case "bun":
      return [process.execPath, ["test", "--preload", tripwire, fixture]];
  }
}

// The Node leg also proves it on Node 22, the other Node the tests run on.
const legs = runtime === "node" ? (["node", "node22"] as const) : ([runtime] as const);

for (const which of legs) {
  test(`tripwire: a rejection left unhandled fails the run (${which})`, () => {
    const [bin, argv] = command(which);
    // Without NODE_TEST_CONTEXT: the nested run must report for itself, not to this runner.
    const { NODE_TEST_CONTEXT: _nested, ...env } = process.env;
    const run = spawnSync(bin, argv, { encoding: "utf8", timeout: 60_000, env });
    const output = `${run.stdout}${run.stderr}`;
    assert.notEqual(run.status, 0, output);
    const clean = stripVTControlCharacters(output);
    const failed =
      which === "bun"
        ? Number(/^\s*(\d+) fail$/m.exec(clean)?.[1])
        : which === "deno"
          ? Number(/\| (\d+) failed/.exec(clean)?.[1])
          : Number(/^# fail (\d+)$/m.exec(clean)?.[1]);
    // Node fails both tests (the tripwire's hook); Bun's runner fails both before any listener
    // hears of them; Deno's runner fails the first and the tripwire's exit code the run.
    assert.ok(failed >= (which === "deno" ? 1 : 2), `too few failed tests:\n${output}`);
    if (which !== "bun") {
      assert.match(clean, /tripwire: unhandled rejection: Error: left unhandled while running/);
      assert.match(clean, /tripwire: unhandled rejection: Error: left unhandled after the end/);
    }
  });
}
