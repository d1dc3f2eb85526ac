import assert from "node:assert/strict";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { readmeExamples } from "../../../test-support/readme-examples.ts";

for (const [name, path] of readmeExamples(new URL("../", import.meta.url))) {
  test(`README example ${name} runs`, async () => {
    const lines: string[] = [];
    const log = console.log;
    console.log = (...args: unknown[]) => lines.push(args.join(" "));
    try {
      await import(pathToFileURL(path).href);
    } finally {
      console.log = log;
    }
    assert.ok(lines.length > 0, "the example printed nothing");
  });
}
