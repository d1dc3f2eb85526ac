/** The demo's server-side examples: Deno and Bun scripts drive pi through the demo's bridge. */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type DemoServer, startDemoServer } from "../server/demo-server.ts";

// Async: the bridge under test runs in this process, so a blocking spawn would starve it.
const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../", import.meta.url));
const example = (name: string) => fileURLToPath(new URL(`../examples/${name}`, import.meta.url));
let demo: DemoServer;
before(async () => {
  demo = await startDemoServer({ port: 0 });
});
after(async () => {
  await demo?.close();
});

test("the Deno script streams pi's answer through the bridge", async () => {
  const deno = `${root}node_modules/.bin/deno`;
  const args = ["run", "-A", example("remote-deno.ts"), demo.url, demo.token];
  const { stdout } = await run(deno, args, { cwd: root, timeout: 60_000 });
  assert.match(stdout, /Hello from Deno through the bridge/);
});

test("the Bun script streams pi's answer through the bridge", async () => {
  const bun = `${root}node_modules/.bin/bun`;
  const args = ["--conditions", "@pi-kit/source", example("remote-bun.ts"), demo.url, demo.token];
  const { stdout } = await run(bun, args, { cwd: root, timeout: 60_000 });
  assert.match(stdout, /Hello from Bun through the bridge/);
});

test("close() removes the temporary state folder the server made, and keeps one it was given", async () => {
  const own = await startDemoServer({ port: 0 });
  assert.ok(existsSync(own.stateDir));
  await own.close();
  assert.equal(existsSync(own.stateDir), false, `${own.stateDir} is left behind`);
  const stateDir = mkdtempSync(join(tmpdir(), "pi-kit-demo-given-"));
  try {
    await (await startDemoServer({ port: 0, stateDir })).close();
    assert.ok(existsSync(join(stateDir, "workspace")), "a given folder stays, with what is in it");
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
});
