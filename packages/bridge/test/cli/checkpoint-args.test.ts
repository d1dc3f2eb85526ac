/** The CLI's `--no-checkpoints` (checkpoints are on unless it is given) and `--checkpoint-max-file-bytes`. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseArgs, USAGE } from "../../src/cli/parse-args.ts";

const PI = ["--", "pi", "--mode", "rpc"];
const env = { PI_KIT_BRIDGE_TOKEN: "a".repeat(43) };

test("cli: checkpoints are kept by default; --no-checkpoints turns them off", () => {
  assert.equal(parseArgs(PI, env).serve.checkpoints, undefined, "the bridge's default: on");
  assert.equal(parseArgs(["--no-checkpoints", ...PI], env).serve.checkpoints, false);
  assert.match(USAGE, /--no-checkpoints/);
});

test("cli: --checkpoint-max-file-bytes sets the size cap of checkpoints", () => {
  assert.deepEqual(
    parseArgs(["--checkpoint-max-file-bytes", "1048576", ...PI], env).serve.checkpoints,
    { maxFileBytes: 1048576 },
  );
  assert.throws(() => parseArgs(["--checkpoint-max-file-bytes", "-1", ...PI], env), /whole number/);
  assert.throws(
    () => parseArgs(["--checkpoint-max-file-bytes", "5", "--no-checkpoints", ...PI], env),
    /cannot be used with --no-checkpoints/,
  );
  assert.match(USAGE, /--checkpoint-max-file-bytes/);
});
