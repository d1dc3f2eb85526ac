/**
 * The command line's shape, as `node:util`'s `parseArgs` reads it for the flag table: only
 * `--name value`, everything after the first `--` is pi's, the first mistake in order is the one
 * reported, and the files flags name are read through the given reader (the parser is pure).
 */
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { test } from "node:test";
import { parseCommandLine } from "../../src/cli/parse-args.ts";
import type { CliFiles } from "../../src/cli/read-files.ts";

const env = { PI_KIT_BRIDGE_TOKEN: "a".repeat(43) };
const noFiles: CliFiles = {
  secret: () => assert.fail("no file is read"),
  publicKey: () => assert.fail("no file is read"),
};
const parse = (argv: string[], files = noFiles) => parseCommandLine(argv, env, files);

test("cli: everything after the first -- is the pi command, -- included", () => {
  assert.deepEqual(parse(["--port", "0", "--", "pi", "--mode", "rpc", "--", "--port"]).pi, {
    command: "pi",
    args: ["--mode", "rpc", "--", "--port"],
    env: { PI_KIT_BRIDGE_TOKEN: undefined },
  });
  assert.throws(() => parse(["--host", "--", "pi"]), { message: "--host needs a value" });
  assert.throws(() => parse(["--port"]), { message: "--port needs a value" });
});

test("cli: only --name value is an option: =value, short options and bare words are unknown", () => {
  for (const [argv, written] of [
    [["--port=0", "--scripted"], "--port=0"],
    [["--scripted=yes"], "--scripted=yes"],
    [["-p", "0", "--scripted"], "-p"],
    [["-sx"], "-sx"],
    [["--scripted", "pi"], "pi"],
    [["--help"], "--help"],
    [["--constructor", "--scripted"], "--constructor"],
  ] as const)
    assert.throws(() => parse([...argv]), { message: `Unknown option ${JSON.stringify(written)}` });
});

test("cli: a value may start with a dash, and the first mistake in order is reported", () => {
  assert.throws(() => parse(["--port", "--scripted"]), {
    message: '--port needs a whole number from 0 to 65535, got "--scripted"',
  });
  assert.throws(() => parse(["--sandbox", "x", "--bogus", "--scripted"]), {
    message: '--sandbox knows only bwrap, got "x"',
  });
  assert.deepEqual(parse(["--origin", "a", "--origin", "-", "--scripted"]).serve.origins, [
    "a",
    "-",
  ]);
});

test("cli: the token and ticket files come through the reader, once each", () => {
  const read: string[] = [];
  const files: CliFiles = {
    secret: (path, what) => {
      read.push(`${what} ${path}`);
      return "b".repeat(43);
    },
    publicKey: () => assert.fail("no public key file named"),
  };
  const parsed = parse(["--token-file", "/t", "--ticket-secret-file", "/s", "--scripted"], files);
  assert.deepEqual(read, [`token ${resolve("/t")}`, `ticket secret ${resolve("/s")}`]);
  assert.equal(parsed.tokenSource, "file");
  assert.equal(parsed.serve.token, "b".repeat(43));
  assert.throws(
    () => parse(["--token-file", "/t", "--token", "c".repeat(43), "--scripted"], files),
    {
      message: "Give the token once: --token or --token-file",
    },
  );
});
