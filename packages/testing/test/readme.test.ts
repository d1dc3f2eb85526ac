import assert from "node:assert/strict";
import { test } from "node:test";
import { readmeExamples, runExample } from "../../../test-support/readme-examples.ts";

for (const [name, path] of readmeExamples(new URL("../", import.meta.url))) {
  test(`README example ${name} runs against real pi`, async () => {
    assert.deepEqual(await runExample(path), ["bash finished"]);
  });
}
