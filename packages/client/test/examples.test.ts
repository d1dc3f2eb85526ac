import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const pkg = new URL("../", import.meta.url);
const readme = readFileSync(new URL("README.md", pkg), "utf8");
const runtime = "Deno" in globalThis ? "deno" : "Bun" in globalThis ? "bun" : "node";
const example = fileURLToPath(new URL(`examples/${runtime}.ts`, pkg));

// The README shows each runtime's example verbatim; each runtime's leg runs its own one.
test(`README example for ${runtime} is current and streams pi's answer`, () => {
  assert.ok(
    readme.includes(readFileSync(example, "utf8").trim()),
    `README.md is missing ${example}`,
  );
  const argv = {
    node: [process.execPath, ["--conditions=@pi-kit/source", "--import", "tsx", example]],
    deno: [process.execPath, ["run", "-A", example]],
    bun: [process.execPath, ["--conditions", "@pi-kit/source", example]],
  }[runtime] as [string, string[]];
  const run = spawnSync(argv[0], argv[1], { encoding: "utf8", timeout: 60_000 });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /\[bash done\]\nTool bash returned: hello from bash\nstarted, pi 1\n/);
});
