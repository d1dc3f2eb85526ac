import assert from "node:assert/strict";
import { test } from "node:test";
import { readmeExamples, runExample } from "../../../test-support/readme-examples.ts";

for (const [name, path] of readmeExamples(new URL("../", import.meta.url))) {
  test(`README example ${name} runs`, async () => {
    assert.ok((await runExample(path)).length > 0, "the example printed nothing");
  });
}
