/** The CLI's `--no-checkpoints`: checkpoints are on unless it is given. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseArgs, USAGE } from "../src/cli/parse-args.ts";

const PI = ["--", "pi", "--mode", "rpc"];
const env = { PI_KIT_BRIDGE_TOKEN: "a".repeat(43) };

test("cli: checkpoints are kept by default; --no-checkpoints turns them off", () => {
  assert.equal(parseArgs(PI, env).serve.checkpoints, undefined, "the bridge's default: on");
  assert.equal(parseArgs(["--no-checkpoints", ...PI], env).serve.checkpoints, false);
  assert.match(USAGE, /--no-checkpoints/);
});
