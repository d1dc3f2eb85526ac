/** The CLI's `--control-reclaim-ms`: how long a restarted session keeps control for its former controller. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseArgs, USAGE } from "../../src/cli/parse-args.ts";

const PI = ["--", "pi", "--mode", "rpc"];
const env = { PI_KIT_BRIDGE_TOKEN: "a".repeat(43) };

test("cli: --control-reclaim-ms sets how long control waits for the viewer that had it", () => {
  assert.equal(parseArgs(PI, env).serve.limits?.controlReclaimMs, undefined, "the default: 15 s");
  assert.equal(
    parseArgs(["--control-reclaim-ms", "0", ...PI], env).serve.limits?.controlReclaimMs,
    0,
  );
  assert.equal(
    parseArgs(["--control-reclaim-ms", "60000", ...PI], env).serve.limits?.controlReclaimMs,
    60000,
  );
  assert.throws(() => parseArgs(["--control-reclaim-ms", "-1", ...PI], env), /whole number/);
  assert.match(USAGE, /--control-reclaim-ms <n>/);
});
