/** The CLI's `--no-uploads` and `--upload-max-*` flags (uploads are on unless `--no-uploads`). */
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseArgs, USAGE } from "../../src/cli/parse-args.ts";

const PI = ["--", "pi", "--mode", "rpc"];
const env = { PI_KIT_BRIDGE_TOKEN: "a".repeat(43) };

test("cli: uploads are taken by default; --no-uploads turns them off", () => {
  assert.equal(parseArgs(PI, env).serve.uploads, undefined, "the bridge's default: on");
  assert.equal(parseArgs(["--no-uploads", ...PI], env).serve.uploads, false);
  assert.match(USAGE, /--no-uploads/);
});

test("cli: --upload-max-file-bytes, --upload-max-files and --upload-max-session-bytes set the limits", () => {
  assert.deepEqual(
    parseArgs(
      [
        "--upload-max-file-bytes",
        "1048576",
        "--upload-max-files",
        "3",
        "--upload-max-session-bytes",
        "10485760",
        ...PI,
      ],
      env,
    ).serve.uploads,
    { maxFileBytes: 1048576, maxFilesPerMessage: 3, maxSessionBytes: 10485760 },
  );
  assert.deepEqual(parseArgs(["--upload-max-files", "1", ...PI], env).serve.uploads, {
    maxFilesPerMessage: 1,
  });
  assert.throws(() => parseArgs(["--upload-max-file-bytes", "-1", ...PI], env), /whole number/);
  assert.throws(() => parseArgs(["--upload-max-session-bytes", "1.5", ...PI], env), /whole number/);
  assert.throws(() => parseArgs(["--upload-max-files", "0", ...PI], env), /from 1/);
  assert.throws(
    () => parseArgs(["--upload-max-files", "2", "--no-uploads", ...PI], env),
    /cannot be used with --no-uploads/,
  );
  for (const flag of [
    "--upload-max-file-bytes",
    "--upload-max-files",
    "--upload-max-session-bytes",
  ])
    assert.match(USAGE, new RegExp(flag));
});
