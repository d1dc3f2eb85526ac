import assert from "node:assert/strict";
import { test } from "node:test";

// The test runner says which Node each leg claims to be; this proves the claim.
test("runs on the Node major the runner claims", () => {
  const expected = process.env.PI_KIT_EXPECT_NODE_MAJOR;
  const isNode = !("Deno" in globalThis) && !("Bun" in globalThis);
  if (!isNode || expected === undefined) return;
  assert.equal(process.versions.node.split(".")[0], expected);
});
