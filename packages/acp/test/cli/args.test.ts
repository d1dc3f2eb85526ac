/** The `pi-kit-acp` command line. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseCliArgs } from "../../src/cli/args.ts";

describe("command line", () => {
  test("the command line", () => {
    assert.deepEqual(parseCliArgs(["--url", "wss://h/pi", "--ticket-command", "get-ticket"]), {
      mode: "bridge",
      url: "https://h/pi",
      tokenFile: undefined,
      ticketCommand: "get-ticket",
      label: undefined,
    });
    assert.deepEqual(parseCliArgs(["--", "node", "pi.js", "--mode", "rpc"]), {
      mode: "local",
      command: "node",
      args: ["pi.js", "--mode", "rpc"],
    });
    assert.deepEqual(parseCliArgs([]), { mode: "local", command: undefined, args: [] });
    assert.throws(() => parseCliArgs(["--token-file", "t"]), /need --url/);
    assert.throws(() => parseCliArgs(["--url", "ftp://x"]), /not an http/);
    assert.throws(
      () => parseCliArgs(["--url", "http://x", "--token-file", "a", "--ticket-command", "b"]),
      /not both/,
    );
    assert.throws(() => parseCliArgs(["--bogus"]), /bogus/);
  });
});
