import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

const pkg = new URL("../", import.meta.url);
const readme = readFileSync(new URL("README.md", pkg), "utf8");
const examples = readdirSync(new URL("examples/", pkg)).filter((f) => f.endsWith(".ts"));

// Each example is shown verbatim in the README and runs here, so the README cannot rot.
for (const file of examples) {
  test(`README example ${file} is current and runs`, async () => {
    const source = readFileSync(new URL(`examples/${file}`, pkg), "utf8");
    assert.ok(readme.includes(source.trim()), `README.md does not show examples/${file} verbatim`);
    const lines: string[] = [];
    const log = console.log;
    console.log = (...args: unknown[]) => lines.push(args.join(" "));
    try {
      await import(new URL(`examples/${file}`, pkg).href);
    } finally {
      console.log = log;
    }
    assert.ok(lines.length > 0, "the example printed nothing");
  });
}
