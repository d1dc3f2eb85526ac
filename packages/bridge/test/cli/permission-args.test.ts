/** The CLI's permission flags: the default mode, the modes users may choose, and leaving the extension out. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseArgs, UsageError } from "../../src/cli/parse-args.ts";
import { withPermissions } from "../../src/sessions/permission-launch.ts";
import type { PiProcessSpec } from "../../src/sessions/session-settings.ts";

const PI = ["--", "pi", "--mode", "rpc"];
const env = { PI_KIT_BRIDGE_TOKEN: "a".repeat(43) };

/** The pi command parsed from `argv` (never `--scripted` here). */
function piOf(argv: readonly string[]): PiProcessSpec {
  const { pi } = parseArgs(argv, env);
  assert.notEqual(pi, "scripted");
  return pi as PiProcessSpec;
}

test("cli: --permission-mode and --permission-modes configure the extension; --no-permissions leaves it out", () => {
  const { serve } = parseArgs(
    ["--permission-modes", "auto-edits,ask", "--permission-mode", "auto-edits", ...PI],
    env,
  );
  assert.deepEqual(serve.permissions, { allowed: ["auto-edits", "ask"], mode: "auto-edits" });
  const spec = withPermissions(
    piOf(["--permission-modes", "auto-edits,ask", "--permission-mode", "auto-edits", ...PI]),
    serve.permissions,
  );
  assert.deepEqual(spec.args?.slice(0, 3), ["--mode", "rpc", "-e"]);
  assert.match(spec.args?.[3] ?? "", /permission-extension\.(ts|js)$/);
  assert.equal(spec.env?.PI_KIT_PERMISSION_MODE, "auto-edits");
  assert.equal(spec.env?.PI_KIT_PERMISSION_MODES, "auto-edits,ask");
  assert.equal(spec.env?.PI_KIT_BRIDGE_TOKEN, undefined, "pi still never gets the token");
  assert.ok("PI_KIT_BRIDGE_TOKEN" in (spec.env ?? {}));

  // By default the extension is loaded in full access; --no-permissions leaves it out.
  assert.equal(parseArgs(PI, env).serve.permissions, undefined);
  assert.equal(withPermissions(piOf(PI), undefined).env?.PI_KIT_PERMISSION_MODE, "full");
  const off = parseArgs(["--no-permissions", ...PI], env).serve;
  assert.equal(off.permissions, false);
  const offPi = piOf(["--no-permissions", ...PI]);
  assert.deepEqual(withPermissions(offPi, off.permissions), offPi);
});

test("cli: an unknown mode, a default outside the allowed ones, or modes without the extension are one-line mistakes", () => {
  const mistakes: Array<[string[], RegExp]> = [
    [["--permission-mode", "yolo"], /--permission-mode knows ask, auto-edits and full, got "yolo"/],
    [["--permission-modes", "ask,nope"], /--permission-modes knows ask, auto-edits and full/],
    [
      ["--permission-modes", "ask", "--permission-mode", "full"],
      /--permission-mode full is not one of --permission-modes/,
    ],
    [["--no-permissions", "--permission-mode", "ask"], /need the permission extension/],
  ];
  for (const [flags, message] of mistakes)
    assert.throws(
      () => parseArgs([...flags, ...PI], env),
      (error: unknown) => {
        assert.ok(error instanceof UsageError);
        assert.match(error.message, message);
        return true;
      },
    );
});
